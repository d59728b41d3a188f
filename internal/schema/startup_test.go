package schema

import (
	"testing"

	"github.com/ccvet/ccvet/schemas"
)

// BenchmarkStartup is what a run pays before its first line: reading the
// embedded schema documents and building a Validator.
func BenchmarkStartup(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		cat, err := readCatalog(schemas.FS)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := newValidator(cat); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCompileAll: every embedded schema compiles with jsonschema/v5 (New
// leaves that to the first line that needs it).
func TestCompileAll(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.compileAll(); err != nil {
		t.Fatal(err)
	}
}

// TestLazyCompileConcurrent: validators compiled on first use from many
// goroutines at once give the answer of one compiled alone (run with -race).
func TestLazyCompileConcurrent(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	types := v.EntryTypes()
	bad := map[string]any{"type": 1}
	want := map[string]int{}
	solo, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range types {
		want[typ] = len(solo.ValidateEntry(typ, bad))
	}
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for k := range types {
				typ := types[(k+g*7)%len(types)]
				if got := len(v.ValidateEntry(typ, bad)); got != want[typ] {
					t.Errorf("%s: %d problems, want %d", typ, got, want[typ])
				}
			}
			_ = v.ValidateHistory(bad)
			_ = v.ValidateTodos(bad)
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}
