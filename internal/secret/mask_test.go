package secret_test

import (
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// An Anthropic key is found only before a quote, a space or a ';': in a
// path it stands before a '/' or a ".jsonl". MaskPath masks each name on
// its own and without its extension; MaskDocument does so for the short
// strings of a JSON document; MaskValue reads a value as the file holds
// it (a JSON string, after its member's name).
func TestMaskPathAndDocument(t *testing.T) {
	g := secrettest.New(53)
	s := secret.Default()
	ant, aws, gen := g.Anthropic(), g.AWS(), g.Generic()
	for _, p := range []string{"/tmp/x/" + ant + ".jsonl", "projects/-home-" + ant + "/a.jsonl", `C:\x\` + ant + `\b`, "/tmp/" + aws + "/x"} {
		got := s.MaskPath(p)
		if strings.Contains(got, ant[14:30]) || strings.Contains(got, aws[4:]) || len(got) != len(p) {
			t.Errorf("MaskPath left a key in a path")
		}
	}
	if p := "/home/me/app/src/main.go"; s.MaskPath(p) != p {
		t.Errorf("MaskPath changed %q", p)
	}
	doc := []byte(`{"path": "projects/-tmp-` + ant + `/x.jsonl", "n": 1}`)
	if got := string(s.MaskDocument(doc)); strings.Contains(got, ant[14:30]) || !strings.Contains(got, "-tmp-****") {
		t.Errorf("MaskDocument left a key in a path")
	}
	if got := s.MaskValue("apiKey", gen); strings.Contains(got, gen[4:20]) {
		t.Errorf("MaskValue left a generic value under a credential's name")
	}
	if got := s.MaskValue("", ant); got != strings.Repeat("*", len(ant)) {
		t.Errorf("MaskValue left part of a key")
	}
}
