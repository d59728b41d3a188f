package layout

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestWalkTreeOrder builds random trees (folders three levels deep, names
// that sort differently as bytes and as paths, links, skipped folders) and
// checks that walkTree's merged visits are filepath.WalkDir's, in order.
func TestWalkTreeOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "a.b", "a-b", "b", "B", "z", "zz", "0", "a b", "é"}
	for round := range 40 {
		root := t.TempDir()
		var build func(dir string, depth int)
		build = func(dir string, depth int) {
			for _, n := range names {
				if rng.IntN(3) != 0 {
					continue
				}
				p := filepath.Join(dir, n)
				switch {
				case depth < 4 && rng.IntN(2) == 0:
					if err := os.Mkdir(p, 0o755); err != nil {
						t.Fatal(err)
					}
					build(p, depth+1)
				case rng.IntN(8) == 0:
					if err := os.Symlink(dir, p); err != nil {
						t.Fatal(err)
					}
				default:
					if err := os.WriteFile(p, nil, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		build(root, 0)
		skip := func(p string, d fs.DirEntry) bool {
			return d != nil && d.IsDir() && strings.HasSuffix(p, string(filepath.Separator)+"zz")
		}
		var want []string
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			want = append(want, fmt.Sprintf("%s %v", p, err))
			if skip(p, d) {
				return fs.SkipDir
			}
			return nil
		})
		var res Result
		walkTree(&res, root, func(part *Result, p string, d fs.DirEntry, err error) error {
			part.Problems = append(part.Problems, Problem{Path: fmt.Sprintf("%s %v", p, err)})
			part.Skipped++
			if skip(p, d) {
				return fs.SkipDir
			}
			return nil
		})
		var got []string
		for _, p := range res.Problems {
			got = append(got, p.Path)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: walkTree visited\n%s\nfilepath.WalkDir\n%s", round, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if res.Skipped != len(want) {
			t.Fatalf("round %d: Skipped %d, want %d", round, res.Skipped, len(want))
		}
	}
}

// TestWalkTreeMissingRoot: a root that is not there is visited once, with
// the error, as filepath.WalkDir does.
func TestWalkTreeMissingRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "gone")
	var res Result
	calls := 0
	walkTree(&res, root, func(part *Result, p string, d fs.DirEntry, err error) error {
		calls++
		if p != root || d != nil || err == nil {
			t.Errorf("visit(%q, %v, %v)", p, d, err)
		}
		return nil
	})
	if calls != 1 {
		t.Errorf("%d visits, want 1", calls)
	}
}

// TestWalkListsPlainCopies: a walk of a data root lists its plain copies
// as PlainCopies does (links, FIFOs and the files beside them left out),
// and says it did not where it left a folder out (.git, node_modules,
// another argument), or walked only the projects folder.
func TestWalkListsPlainCopies(t *testing.T) {
	root := t.TempDir()
	files := []string{
		"file-history/s1/aaaa@v1", "file-history/s1/aaaa@v2", "file-history/s2/b@v1", "file-history/stray",
		"paste-cache/p1.txt", "paste-cache/deep/p2.txt",
		"projects/-p/s1/tool-results/t1.txt", "projects/-p/s1/tool-results/sub/t2.txt",
		"projects/-p/s1/other/x.txt", "projects/-p/s1.jsonl", "projects/-p/tool-results/no.txt",
		"history.jsonl", "todos/s1-agent-s1.json", "settings.json",
	}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "settings.json"), filepath.Join(root, "paste-cache", "link.txt")); err != nil {
		t.Fatal(err)
	}
	want := PlainCopies(root)
	if len(want) != 8 {
		t.Fatalf("PlainCopies found %d, want 8: %+v", len(want), want)
	}
	check := func(name string, args []string, listed bool) {
		t.Helper()
		res, err := Discover(args, "")
		if err != nil {
			t.Fatal(err)
		}
		var r *Root
		for i := range res.Roots {
			if res.Roots[i].Dir == root {
				r = &res.Roots[i]
			}
		}
		if r == nil {
			t.Fatalf("%s: no root %s in %+v", name, root, res.Roots)
		}
		if r.PlainListed != listed {
			t.Fatalf("%s: PlainListed = %v, want %v", name, r.PlainListed, listed)
		}
		if listed && !slices.Equal(r.Plain, want) {
			t.Errorf("%s: the walk listed\n%+v\nPlainCopies\n%+v", name, r.Plain, want)
		}
	}
	check("data root", []string{root}, true)
	check("projects folder", []string{filepath.Join(root, "projects")}, false)
	check("a folder named inside", []string{root, filepath.Join(root, "paste-cache", "deep")}, false)
	if err := os.MkdirAll(filepath.Join(root, "file-history", "s3", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	check(".git inside", []string{root}, false)
}

// TestWalkTreeBoundedGoroutines: a tree of thousands of folders at the
// split depth is listed by a fixed number of goroutines (one each would
// hold thousands of stacks: 49 MiB for 40,000 sessions, a review found).
func TestWalkTreeBoundedGoroutines(t *testing.T) {
	root := t.TempDir()
	for i := range 2000 {
		d := filepath.Join(root, "file-history", fmt.Sprintf("s%04d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "x@v1"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := runtime.NumGoroutine()
	var mu sync.Mutex
	most := 0
	var res Result
	walkTree(&res, root, func(part *Result, p string, d fs.DirEntry, err error) error {
		part.Skipped++
		mu.Lock()
		most = max(most, runtime.NumGoroutine())
		mu.Unlock()
		return nil
	})
	if res.Skipped != 1+1+2*2000 {
		t.Errorf("%d visits, want %d", res.Skipped, 2+2*2000)
	}
	if most > base+walkJobs+2 {
		t.Errorf("%d goroutines during the walk, %d before: want at most %d more", most, base, walkJobs)
	}
}
