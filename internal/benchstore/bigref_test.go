package benchstore

import (
	"reflect"
	"testing"

	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/lint"
	"github.com/ccvet/ccvet/internal/rules"
)

// referenceAgrees runs the engine with and without its fast path
// (jsontree, the fast schema check, rules reading the tree) over dir, with
// every rule on and --strict: the findings must be identical. The
// reference decodes every line with encoding/json and validates it with
// jsonschema/v5, so over a damaged generated store this proves the fast
// path on many more damaged lines than the fixtures hold.
func referenceAgrees(t *testing.T, dir string) {
	t.Helper()
	every := map[string]bool{}
	for _, r := range rules.All() {
		every[r.ID] = true
	}
	run := func(reference bool) *lint.Result {
		e, err := lint.New(lint.Options{Jobs: 2, Strict: true, Enabled: every, Reference: reference})
		if err != nil {
			t.Fatal(err)
		}
		found, err := layout.Discover([]string{dir}, "")
		if err != nil {
			t.Fatal(err)
		}
		return e.Run(found)
	}
	fast, ref := run(false), run(true)
	defer fast.Close()
	defer ref.Close()
	if fast.Files != ref.Files || fast.Entries != ref.Entries || fast.Bytes != ref.Bytes || fast.Skipped != ref.Skipped {
		t.Errorf("fast: %d files, %d entries, %d bytes, %d skipped; reference: %d, %d, %d, %d",
			fast.Files, fast.Entries, fast.Bytes, fast.Skipped, ref.Files, ref.Entries, ref.Bytes, ref.Skipped)
	}
	for i := range max(len(fast.Findings), len(ref.Findings)) {
		var a, b any
		if i < len(fast.Findings) {
			a = fast.Findings[i]
		}
		if i < len(ref.Findings) {
			b = ref.Findings[i]
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%d findings on the fast path, %d on the reference; first difference at %d:\n fast: %+v\n  ref: %+v",
				len(fast.Findings), len(ref.Findings), i, a, b)
		}
	}
	t.Logf("identical: %d findings over %d files and %d entries", len(fast.Findings), fast.Files, fast.Entries)
}
