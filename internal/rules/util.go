package rules

import (
	"strconv"

	"github.com/ccvet/ccvet/internal/secret"
)

func itoa(n int) string { return strconv.Itoa(n) }

// plural returns "1 entry" or "3 entries" style counts.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// quote shows an untrusted string briefly, escaped, in backquote-free form.
//
// A secret in s is masked first ('*' for each byte): cut, a key is no
// longer found by the mask the finding's message gets later.
func quote(s string) string {
	const max = 60
	s = secret.Default().MaskPath(s) // a name too: "<key>.jsonl"
	r := []rune(s)
	if len(r) > max {
		s = string(r[:max]) + "…"
	}
	return strconv.Quote(s)
}
