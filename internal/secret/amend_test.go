package secret_test

import (
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// An Anthropic key followed by punctuation in prose is found whole (gitleaks'
// rule wants a quote, a space or a ';' after it); a longer run of the key's
// characters is not a key.
func TestAnthropicKeyEnds(t *testing.T) {
	s := secret.Default()
	g := secrettest.New(61)
	for _, after := range []string{".", ",", ")", ":", "]", "}", ">", "!", "?", "/", "\\", "", " ", "\"", ";", "\u00e9"} {
		key := g.Anthropic()
		admin := "sk-" + "ant-admin01-" + key[len("sk-ant-api03-"):]
		for _, k := range []string{key, admin} {
			text := "my key is (" + k + after + " and more"
			var got []secret.Match
			s.Scan([]byte(text), func(m secret.Match) { got = append(got, m) })
			if len(got) != 1 || got[0].Value != k || !strings.HasPrefix(got[0].Rule.ID, "anthropic-") {
				t.Errorf("key followed by %q: %d matches", after, len(got))
			}
			if m := s.Mask(text); strings.Contains(m, k[14:40]) {
				t.Errorf("Mask left a key followed by %q", after)
			}
		}
	}
	for _, more := range []string{"A", "_", "-", "9"} {
		text := "x " + g.Anthropic() + more + " y"
		s.Scan([]byte(text), func(m secret.Match) {
			if strings.HasPrefix(m.Rule.ID, "anthropic-") {
				t.Errorf("a key followed by %q, a longer run, found as %s", more, m.Rule.ID)
			}
		})
	}
}
