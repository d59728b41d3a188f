package finding

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// Fingerprint identifies a finding across runs without its line and column,
// so edits elsewhere in the file do not make it look new: rule, path, entry
// uuid, JSON pointer and message with its numbers removed (or rule, path and
// message when the finding has no uuid: a pointer is then relative to a line
// that may move). Several findings may share a fingerprint; SARIF appends
// ":<occurrence>" and the baseline counts them. SARIF's partial fingerprints
// and baselines share this one function: change what it hashes only together
// with the SARIF fingerprint version and the baseline version.
func Fingerprint(f *Finding) string {
	parts := []string{f.Rule, f.Path}
	if f.UUID != "" {
		parts = append(parts, f.UUID, f.Pointer)
	}
	parts = append(parts, stable(f))
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:])
}

// stable is what a fingerprint hashes of what a finding says: its Key when
// it has one, else its message with the numbers removed.
func stable(f *Finding) string {
	if f.Key != "" {
		return f.Key
	}
	return WithoutNumbers(f.Message)
}

// WithoutNumbers is s with each run of digits replaced by '#': what a
// fingerprint hashes of a message. A rule whose message words a count
// ("1 session", "3 sessions") sets its finding's Key to it, worded with
// a count of 0, so that the finding keeps its fingerprint as it grows.
func WithoutNumbers(s string) string { return digits.ReplaceAllString(s, "#") }

var digits = regexp.MustCompile(`[0-9]+`)

// ContentFingerprint is Fingerprint without the path: what a finding says
// about its file (rule, entry uuid and JSON pointer, message with its
// numbers removed, or its Key). Baselines pair it with a path of their own
// choosing (the path relative to the data root), so that a finding is
// recognised however the run named its file.
func ContentFingerprint(f *Finding) string { return contentFingerprint(f, stable(f)) }

// MessageFingerprint is ContentFingerprint over the message (numbers
// removed) even when f has a Key: what baselines recorded for every
// finding before Key existed (a secret finding's, until 2026-11-27).
// Baselines still accept it, so that one written then hides its secrets.
func MessageFingerprint(f *Finding) string {
	return contentFingerprint(f, WithoutNumbers(f.Message))
}

func contentFingerprint(f *Finding, says string) string {
	parts := []string{f.Rule}
	if f.UUID != "" {
		parts = append(parts, f.UUID, f.Pointer)
	}
	parts = append(parts, says)
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:])
}
