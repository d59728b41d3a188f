package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/rules"
)

// referenceRoots are the folders the fast path is compared on: the real
// corpus, the sample store, every rule fixture case and the broken files.
func referenceRoots(t *testing.T) [][]string {
	var roots [][]string
	if _, err := os.Stat(corpusDir); err == nil {
		roots = append(roots, []string{corpusDir})
	} else {
		t.Logf("no corpus: %v", err)
	}
	roots = append(roots, []string{"../../testdata/store"}, []string{"../../testdata/broken"})
	cases, _ := filepath.Glob("../../testdata/rules/*/*")
	for _, c := range cases {
		if fi, err := os.Stat(c); err == nil && fi.IsDir() {
			roots = append(roots, []string{c})
		}
	}
	return roots
}

// TestReferenceAgreement runs the engine with and without the fast path
// (jsontree, the fast schema check, rules reading the tree) over the corpus
// and every fixture, with the default rules, with --strict, and with every
// rule on: the findings must be identical.
func TestReferenceAgreement(t *testing.T) {
	every := map[string]bool{}
	for _, r := range rules.All() {
		every[r.ID] = true
	}
	configs := []struct {
		name string
		opts Options
	}{
		{"default", Options{}},
		{"strict", Options{Strict: true}},
		{"all rules", Options{Enabled: every}},
	}
	total, files, entries := 0, 0, 0
	for _, paths := range referenceRoots(t) {
		for _, c := range configs {
			run := func(reference bool) *Result {
				o := c.opts
				o.Reference = reference
				e, err := New(o)
				if err != nil {
					t.Fatal(err)
				}
				found, err := layout.Discover(paths, "")
				if err != nil {
					t.Fatal(err)
				}
				return e.Run(found)
			}
			fast, ref := run(false), run(true)
			// Compare what is reported (Result also keeps the files, for snippets).
			same := reflect.DeepEqual(fast.Findings, ref.Findings) && fast.Files == ref.Files &&
				fast.Entries == ref.Entries && fast.Bytes == ref.Bytes && fast.Skipped == ref.Skipped
			if !same {
				t.Errorf("%v (%s): fast path and reference differ", paths, c.name)
				n := max(len(fast.Findings), len(ref.Findings))
				for i := 0; i < n; i++ {
					var a, b any
					if i < len(fast.Findings) {
						a = fast.Findings[i]
					}
					if i < len(ref.Findings) {
						b = ref.Findings[i]
					}
					if !reflect.DeepEqual(a, b) {
						t.Errorf("first difference at %d:\n fast: %+v\n  ref: %+v", i, a, b)
						break
					}
				}
				continue
			}
			total += len(fast.Findings)
			files += fast.Files
			entries += fast.Entries
		}
	}
	t.Logf("identical: %d findings over %d files and %d entries (3 configurations)", total, files, entries)
}
