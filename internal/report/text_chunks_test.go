package report

import (
	"bytes"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
)

// TestTextChunks: rendered on several goroutines, each with a line source
// of its own, a report is the one the serial loop writes, byte for byte,
// whatever the number of findings per file (runs longer than a chunk, files
// of one finding), with color or without; and every source opened is closed.
func TestTextChunks(t *testing.T) {
	lines := fakeLines{}
	var fs []finding.Finding
	for k, n := range []int{1, 3, chunkMin - 1, chunkMin, chunkMin + 1, 2, chunkMax + 7, 5, 1, 1, 300} {
		path := fmt.Sprintf("p/%02d.jsonl", k)
		for i := 1; i <= n; i++ {
			lines[path] = append(lines[path], fmt.Sprintf(`{"type":"user","n":%d,"text":"line %d of %s \u001b[31m"}`, i, i, path))
			f := finding.Finding{Rule: "r", Severity: []finding.Severity{finding.Error, finding.Warning, finding.Note}[i%3], Path: path, Line: i, Column: 1 + i%20,
				Message: fmt.Sprintf("finding %d", i)}
			if i%7 == 0 {
				f.Related = []finding.Location{{Path: path, Line: 1, Column: 2, Message: "related"}}
			}
			fs = append(fs, f)
		}
	}
	run := &Run{Findings: fs}
	for _, col := range []bool{false, true} {
		var serial, chunked bytes.Buffer
		if err := Text(&serial, run, TextOptions{Color: col, Snippets: lines}); err != nil {
			t.Fatal(err)
		}
		var opened, closed atomic.Int32
		err := Text(&chunked, run, TextOptions{Color: col, Snippets: lines, Jobs: 3,
			OpenSnippets: func() (LineSource, func()) {
				opened.Add(1)
				return lines, func() { closed.Add(1) }
			}})
		if err != nil {
			t.Fatal(err)
		}
		if opened.Load() != 3 || closed.Load() != 3 {
			t.Errorf("opened %d line sources, closed %d; want 3 and 3", opened.Load(), closed.Load())
		}
		if serial.String() != chunked.String() {
			t.Errorf("color %v: the chunked report differs from the serial one (%d and %d bytes)", col, serial.Len(), chunked.Len())
		}
		if strings.Count(serial.String(), " | ") < len(fs) {
			t.Errorf("color %v: fewer snippets than findings", col)
		}
	}
}
