package model

import (
	"bytes"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/jsonpos"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// TestLineQuestionsReadOnce: the columns, bytes and values of one line of
// many blocks, asked once a block (a rule reporting on each), read the
// line about once, not once a block; and they answer as jsonpos does on
// the line itself.
func TestLineQuestionsReadOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"user","message":{"content":[`)
	for i := range 2000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"tool_result","tool_use_id":"toolu_%d","content":"é %d","is_error":true}`, i, i)
	}
	b.WriteString("]}}\n")
	second := `{"type":"user","message":{"content":"next"}}` + "\n"
	data := []byte(b.String() + second)
	line := data[:b.Len()-1]
	cr := &countingReader{r: bytes.NewReader(data)}
	f := &File{Copy: cr, Bytes: int64(len(data))}
	rec := entry.Ref(1, 0)
	for i := 1999; i >= 0; i-- {
		ptr := fmt.Sprintf("/message/content/%d/tool_use_id", i)
		col := f.Column(rec, ptr)
		if i%97 == 0 {
			off, _ := jsonpos.Find(line, ptr, false)
			if want := jsonpos.Column(line, off); col != want {
				t.Fatalf("%s: column %d, want %d", ptr, col, want)
			}
		}
		if v := string(f.ValueBytes(rec, fmt.Sprintf("/message/content/%d/is_error", i))); v != "true" {
			t.Fatalf("block %d: is_error %q", i, v)
		}
	}
	if got := f.LineBytes(rec); !bytes.Equal(got, line) {
		t.Fatalf("LineBytes: %d bytes, want the line's %d", len(got), len(line))
	}
	if n := cr.n.Load(); n > 2*int64(len(data)) {
		t.Errorf("4,001 questions about one line of %d bytes read %d bytes", len(line), n)
	}
	// Another line replaces it; DropLine lets it go.
	if got := string(f.LineBytes(entry.Ref(2, int64(len(line)+1)))); got != strings.TrimSuffix(second, "\n") {
		t.Errorf("the second line: %q", got)
	}
	f.DropLine()
	if f.line != nil {
		t.Error("DropLine kept the line")
	}
}
