package layout

import (
	"os"
	"testing"
)

// BenchmarkDiscover walks the store CCVET_BENCH_STORE names (skipped
// without one): the folder walk, classification and the foreign-file
// look that run before any file is checked.
func BenchmarkDiscover(b *testing.B) {
	dir := os.Getenv("CCVET_BENCH_STORE")
	if dir == "" {
		b.Skip("CCVET_BENCH_STORE names no store")
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := Discover([]string{dir}, "")
		if err != nil {
			b.Fatal(err)
		}
		DropForeign(res)
	}
}
