package report

import (
	"strings"
	"testing"
)

// BenchmarkSnippet cuts a snippet out of a long line of mostly ASCII JSON
// with some non-ASCII text, as most findings' lines are.
func BenchmarkSnippet(b *testing.B) {
	line := []byte(strings.Repeat(`{"type":"user","message":{"content":"café — ok\u0000"}},`, 40))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := snippet(line, 700, SnippetWidth); !ok {
			b.Fatal("no snippet")
		}
	}
}
