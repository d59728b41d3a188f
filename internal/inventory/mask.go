package inventory

import "github.com/ccvet/ccvet/internal/secret"

// masked is s with the bytes of every secret in it (what the secret rule
// finds: a key pasted into a prompt, a token in a title) replaced by '*',
// so that a listing of sessions, whose labels and first prompts are the
// session's own words, never shows one. It is applied before a text is
// clipped: a key cut in two would no longer be found.
func masked(s string) string {
	var spans [][2]int
	secret.Default().Scan([]byte(s), func(m secret.Match) { spans = append(spans, [2]int{m.Start, m.End}) })
	if len(spans) == 0 {
		return s
	}
	b := []byte(s)
	for _, sp := range spans {
		for i := max(0, sp[0]); i < min(len(b), sp[1]); i++ {
			b[i] = '*'
		}
	}
	return string(b)
}
