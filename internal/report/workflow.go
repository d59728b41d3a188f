package report

import (
	"bytes"
	"strings"
	"unicode"
)

// The GitHub Actions runner reads every line a step prints for workflow
// commands, in two forms: a line that starts with "::" once its leading
// white space is trimmed, and the legacy "##[command]", found anywhere in
// a line and still honoured (set-output and stop-commands among the
// commands; actions/runner, ActionCommand.TryParseV2 and TryParse). ccvet
// runs in CI on transcripts it does not trust, so no text taken from one
// (or from a file name) may form either: the printers escape the ':' that
// would open the first (\x3a) and the '[' that would close "##[" (\x5b in
// text, \u005b in JSON), which changes nothing else of what they show.

// legacyCommand opens a workflow command of the legacy form.
const legacyCommand = "##["

// commandColon is the offset of the ':' that opens a workflow command at
// the start of s (after its leading white space), or -1.
func commandColon(s string) int {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	if strings.HasPrefix(t, "::") {
		return len(s) - len(t)
	}
	return -1
}

// defuseText escapes, in text already free of control characters, the
// ':' that would start a workflow command and the '[' of every "##["; it
// returns s itself, not a copy, when there is neither.
func defuseText(s string) string {
	if i := commandColon(s); i >= 0 {
		s = s[:i] + `\x3a` + s[i+1:]
	}
	return strings.ReplaceAll(s, legacyCommand, `##\x5b`)
}

// defuseJSON writes the '[' of every "##[" in a JSON document as \u005b:
// outside strings a JSON document has no '#', so each is inside a string,
// where the escape means the same.
func defuseJSON(b []byte) []byte {
	if !bytes.Contains(b, []byte(legacyCommand)) {
		return b
	}
	return bytes.ReplaceAll(b, []byte(legacyCommand), []byte(`##\u005b`))
}

// ClosesLegacyCommand reports whether the byte at line[at] is the '[' of
// a "##[" (for printers that escape a line a code point at a time).
func ClosesLegacyCommand(line []byte, at int) bool {
	return at >= 2 && at < len(line) && line[at] == '[' && line[at-1] == '#' && line[at-2] == '#'
}
