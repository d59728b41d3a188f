package cli

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFaithfulPaths: names holding invalid UTF-8, a newline, `%` or `::`
// come out exactly in JSON (with pathBytes where the name is not UTF-8),
// distinctly in SARIF, and escaped in text and GitHub output; two names
// that differ only in an invalid byte never share a path or a fingerprint.
func TestFaithfulPaths(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := t.TempDir()
	names := []string{"a\xff.jsonl", "a\xfe.jsonl", "new\nline.jsonl", "100%25.jsonl", "x::error::y.jsonl"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{broken\n"), 0o644); err != nil {
			t.Skip("this file system refuses the name:", err)
		}
	}
	t.Chdir(dir)
	out, stderr, code := run(t, "", "-f", "json", ".")
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Findings []struct {
			Rule, Path, PathBytes string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Rule != "invalid-json" {
			continue
		}
		exact := f.Path
		if f.PathBytes != "" {
			b, err := base64.StdEncoding.DecodeString(f.PathBytes)
			if err != nil {
				t.Fatal(err)
			}
			exact = string(b)
		}
		got[exact] = true
	}
	for _, n := range names {
		if !got[n] {
			t.Errorf("json: %q not reported exactly; got %v", n, got)
		}
	}
	sarif, _, _ := run(t, "", "-f", "sarif", ".")
	for _, uri := range []string{"a%FF.jsonl", "a%FE.jsonl", "new%0Aline.jsonl", "100%2525.jsonl", "x%3A%3Aerror%3A%3Ay.jsonl"} {
		if !strings.Contains(sarif, `"uri": "`+uri+`"`) {
			t.Errorf("sarif: no uri %s", uri)
		}
	}
	fps := map[string]bool{}
	var s struct {
		Runs []struct {
			Results []struct {
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal([]byte(sarif), &s); err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Runs[0].Results {
		for _, fp := range r.PartialFingerprints {
			if fps[fp] {
				t.Errorf("two findings share the fingerprint %s", fp)
			}
			fps[fp] = true
		}
	}
	gh, _, _ := run(t, "", "-f", "github", ".")
	for _, want := range []string{`file=a\xff.jsonl,`, `file=a\xfe.jsonl,`, `file=new\nline.jsonl,`, "file=100%2525.jsonl,", "file=x%3A%3Aerror%3A%3Ay.jsonl,"} {
		if !strings.Contains(gh, want) {
			t.Errorf("github: no %s in\n%s", want, gh)
		}
	}
	text, _, _ := run(t, "", "--no-snippet", ".")
	for _, want := range []string{`a\xff.jsonl:1:`, `new\nline.jsonl:1:`, "100%25.jsonl:1:", "x::error::y.jsonl:1:"} {
		if !strings.Contains(text, want) {
			t.Errorf("text: no %s in\n%s", want, text)
		}
	}
}
