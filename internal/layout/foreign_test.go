package layout

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForeignHead: the look at a file's first KiBs never changes what
// foreign says of it (foreignLines reads every line).
func TestForeignHead(t *testing.T) {
	pad := strings.Repeat("x", 5000)
	cases := map[string]string{
		"entry":                          `{"type":"user","uuid":"u1","sessionId":"s"}` + "\n",
		"blank lines first":              "\n  \r\n\t\n" + `{"uuid":"u1"}` + "\n",
		"marker past head":               `{"pad":"` + pad + `","uuid":"u1"}` + "\n",
		"marker across head":             `{"pad":"` + pad[:4096-10] + `","sessionId":"s"}` + "\n",
		"dataset":                        `{"a":1}` + "\n" + `{"b":[1,2]}` + "\n",
		"dataset, marker on line 2":      `{"a":1}` + "\n" + `{"uuid":"u"}` + "\n",
		"dataset, key quoted in a value": `{"note":"\"uuid\" is a key"}` + "\n",
		"not json":                       "hello\n",
		"type only":                      `{"type":"summary"}` + "\n",
		"no newline":                     `{"a":1}`,
		"only blanks":                    "\n\n",
		"empty":                          "",
		"long blank head":                strings.Repeat(" ", 5000) + `{"uuid":"u"}` + "\n",
	}
	dir := t.TempDir()
	for name, text := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".jsonl")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		want := foreignLines(fh)
		fh.Close()
		if isDataset := strings.HasPrefix(name, "dataset") && !strings.Contains(name, "marker") || name == "no newline"; want != isDataset {
			t.Errorf("%s: foreignLines = %v", name, want)
		}
		if got := foreign(p, false); got != want {
			t.Errorf("%s: foreign = %v, every line says %v", name, got, want)
		}
	}
}
