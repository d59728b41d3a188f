package inventory

import "github.com/ccvet/ccvet/internal/secret"

// masked is s with the bytes of every secret in it (what the secret rule
// finds: a key pasted into a prompt, a token in a title) replaced by '*',
// so that a listing of sessions, whose labels and first prompts are the
// session's own words, never shows one. It is applied before a text is
// clipped: a key cut in two would no longer be found.
func masked(s string) string { return secret.Default().Mask(s) }

// maskedPath is masked for a path: each name in it is masked on its own
// too (a key before a '/' or a '.', where some rules find none).
func maskedPath(s string) string { return secret.Default().MaskPath(s) }
