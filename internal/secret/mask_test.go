package secret_test

import (
	"encoding/json"
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
	// A project folder named after a cwd that holds a key: Claude Code
	// writes each '_' of the cwd as '-', so the folder holds "ghp-…".
	gh := g.GitHub()
	folder := strings.ReplaceAll(gh, "_", "-")
	for _, p := range []string{"projects/-home-me-" + folder + "-app/s.jsonl", `C:\store\projects\C--Users-me-` + folder + `\s.jsonl`} {
		if got := s.MaskPath(p); strings.Contains(got, gh[4:20]) || len(got) != len(p) || !strings.HasSuffix(got, "s.jsonl") {
			t.Errorf("MaskPath left the key of an encoded cwd in a folder name")
		}
	}
	for _, p := range []string{"projects/-home-me-my-app-v2/0b6f3e6e-6a43-4f3e-9d55-3c4c1c0f7a11.jsonl", "projects/C--Users-me-source-repos-api-key-rotation/x.jsonl"} {
		if got := s.MaskPath(p); got != p {
			t.Errorf("MaskPath changed %q to %q", p, got)
		}
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

// A path with escapes (a Windows path: its backslashes are written \\ in
// JSON) is masked too, decoded, and the masked bytes written over the
// escapes that give them: the document stays JSON, and its other bytes
// are left alone.
func TestMaskDocumentEscapedPath(t *testing.T) {
	ant := secrettest.New(54).Anthropic()
	s := secret.Default()
	doc := []byte(`{"cwd": "C:\\Users\\me\\` + ant + `\\proj", "note": "a \"quoted\" C:\\x\\y.txt"}`)
	got := s.MaskDocument(doc)
	if strings.Contains(string(got), ant[14:30]) || len(got) != len(doc) {
		t.Fatalf("MaskDocument left a key in an escaped path: %d bytes of %d", len(got), len(doc))
	}
	var v map[string]string
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("the masked document is not JSON: %v", err)
	}
	if !strings.HasPrefix(v["cwd"], `C:\Users\me\***`) || !strings.HasSuffix(v["cwd"], `***\proj`) || v["note"] != `a "quoted" C:\x\y.txt` {
		t.Errorf("masked too much or too little: %q, %q", v["cwd"][:16], v["note"])
	}
}
