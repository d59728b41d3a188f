package layout

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWithin(t *testing.T) {
	sep := string(filepath.Separator)
	a := sep + filepath.Join("a", "b")
	for _, c := range []struct {
		p    string
		want bool
	}{
		{a, true},
		{filepath.Join(a, "c"), true},
		{a + "c", false},
		{sep + "a", false},
	} {
		if got := Within(c.p, a); got != c.want {
			t.Errorf("Within(%q, %q) = %v", c.p, a, got)
		}
	}
}

// TestLinksInsideWalk: each kind of link met in the walk is either followed
// (a file inside the paths given) or listed with its reason.
func TestLinksInsideWalk(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("TestLinksInsideWalk skipped: creates symbolic links (Windows allows them only in developer mode or as administrator)")
	}
	base := t.TempDir()
	tree := filepath.Join(base, "tree")
	other := filepath.Join(base, "other")
	for _, d := range []string{tree, other, filepath.Join(tree, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(tree, "a.jsonl"), filepath.Join(other, "o.jsonl")} {
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"in.jsonl":   filepath.Join(tree, "a.jsonl"),
		"out.jsonl":  filepath.Join(other, "o.jsonl"),
		"dir":        filepath.Join(tree, "sub"),
		"gone.jsonl": filepath.Join(base, "gone"),
		"self.jsonl": "self.jsonl",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(tree, name)); err != nil {
			t.Fatal(err)
		}
	}
	check := func(args []string, wantFiles map[string]bool, wantLinks map[string]error) {
		t.Helper()
		res, err := Discover(args, "")
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]bool{}
		for _, f := range res.Files {
			files[f.Path] = f.Link
		}
		if len(files) != len(wantFiles) {
			t.Errorf("%v: files %v, want %v", args, files, wantFiles)
		}
		for p, link := range wantFiles {
			if got, ok := files[p]; !ok || got != link {
				t.Errorf("%v: file %s: found %v, link %v", args, p, ok, got)
			}
		}
		got := map[string]error{}
		for _, l := range res.Links {
			got[l.Path] = l.Err
		}
		if len(got) != len(wantLinks) {
			t.Errorf("%v: links %v, want %v", args, got, wantLinks)
		}
		for p, why := range wantLinks {
			if got[p] != why {
				t.Errorf("%v: link %s: %v, want %v", args, p, got[p], why)
			}
		}
	}
	check([]string{tree},
		map[string]bool{"a.jsonl": false, "in.jsonl": true},
		map[string]error{"out.jsonl": errLinkOutside, "dir": errLinkDir, "gone.jsonl": errLinkDangles, "self.jsonl": errLinkLoop})
	// Naming the other folder too brings the link to it inside the paths given.
	t.Chdir(base)
	check([]string{"tree", "other"},
		map[string]bool{"tree/a.jsonl": false, "tree/in.jsonl": true, "tree/out.jsonl": true, "other/o.jsonl": false},
		map[string]error{"tree/dir": errLinkDir, "tree/gone.jsonl": errLinkDangles, "tree/self.jsonl": errLinkLoop})
}
