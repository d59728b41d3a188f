package layout

import (
	"os"
	"path/filepath"
	"testing"
)

// A file named on the command line keeps its name as given, cleaned as a
// folder walk's paths are: "./s.jsonl" and "d/../d/s.jsonl" are reported
// as "s.jsonl" and "d/s.jsonl", one name whatever way it was typed.
func TestFileArgumentPathCleaned(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("d", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"s.jsonl", filepath.Join("d", "s.jsonl")} {
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for arg, want := range map[string]string{
		"./s.jsonl":                         "s.jsonl",
		filepath.Join("d", "..", "s.jsonl"): "s.jsonl",
		"./d//s.jsonl":                      "d/s.jsonl",
		filepath.Join(dir, "d", "s.jsonl"):  filepath.ToSlash(filepath.Join(dir, "d", "s.jsonl")),
	} {
		res, err := Discover([]string{arg}, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 1 || res.Files[0].Path != want || res.Files[0].Arg != arg {
			t.Errorf("Discover(%q): %+v, want one file with path %q and its argument as given", arg, res.Files, want)
		}
	}
}
