package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindingsGolden pins the whole JSON report over testdata/ and over the
// real corpus (when it is present), with and without --strict, against
// golden files in testdata/golden/ (-j 3 and -j 1 alike): a refactoring
// must not change one byte of it.
// go test ./internal/cli -run TestFindingsGolden -update rewrites them.
func TestFindingsGolden(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	trees := []struct{ name, dir string }{
		{"testdata", filepath.Join("..", "..", "testdata")},
		{"corpus", corpusDir},
	}
	for _, tr := range trees {
		if _, err := os.Stat(tr.dir); err != nil {
			t.Run(tr.name, func(t *testing.T) {
				t.Skipf("%s not available; its golden files are not checked", tr.dir)
			})
			continue
		}
		abs, err := filepath.Abs(tr.dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []string{"default", "strict"} {
			args := []string{"--exit-zero", tr.dir}
			if mode == "strict" {
				args = append([]string{"--strict"}, args...)
			}
			t.Run(tr.name+"/"+mode, func(t *testing.T) {
				_, got, _ := runJSON(t, append([]string{"--jobs", "3"}, args...)...)
				got = relativePaths(got, abs, tr.dir)
				if _, one, _ := runJSON(t, append([]string{"--jobs", "1"}, args...)...); !bytes.Equal(relativePaths(one, abs, tr.dir), got) {
					t.Errorf("-j 1 gives another report than -j 3 over %s:\n%s", tr.dir, firstDiff(got, relativePaths(one, abs, tr.dir)))
				}
				golden := filepath.Join("testdata", "golden", tr.name+"."+mode+".json")
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("findings over %s differ from %s (-update rewrites it):\n%s", tr.dir, golden, firstDiff(want, got))
				}
			})
		}
	}
}

// relativePaths removes the tree's own path from every path in the report,
// so the golden files do not depend on where the checkout lives.
func relativePaths(b []byte, abs, rel string) []byte {
	for _, p := range []string{abs, filepath.ToSlash(abs), rel, filepath.ToSlash(rel)} {
		b = bytes.ReplaceAll(b, []byte(`"`+p+`/`), []byte(`"`))
	}
	return b
}

// firstDiff shows the first line that differs, with its number.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  want %s\n  got  %s", i+1, a, b)
		}
	}
	return "(no line differs)"
}
