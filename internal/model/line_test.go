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

// TestLineQuestionsReadOnce: the columns and bytes of one line of
// many blocks, asked once a block (a rule reporting on each), read the
// line about twice (it is held from the second question on), not once a
// block; and they answer as jsonpos does on the line itself.
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
	second := `{"type":"user","message":{"content":"` + strings.Repeat("next ", 2000) + `"}}` + "\n" // held too: 10 KB
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
		if c := f.Column(rec, fmt.Sprintf("/message/content/%d/is_error", i)); c <= col {
			t.Fatalf("block %d: is_error at column %d, before tool_use_id's %d", i, c, col)
		}
	}
	if got := f.LineBytes(rec); !bytes.Equal(got, line) {
		t.Fatalf("LineBytes: %d bytes, want the line's %d", len(got), len(line))
	}
	if n := cr.n.Load(); n > 2*int64(len(data)) {
		t.Errorf("4,001 questions about one line of %d bytes read %d bytes", len(line), n)
	}
	// A short line is read again for each question, not held.
	short := &File{Copy: bytes.NewReader([]byte("{\"a\":1}\n")), Bytes: 8}
	if c := short.Column(entry.Ref(1, 0), "/a"); c != 6 || short.lines != nil {
		t.Errorf("a short line: column %d, held %d lines", c, len(short.lines))
	}
	// Another line replaces it; DropLine lets it go.
	if got := string(f.LineBytes(entry.Ref(2, int64(len(line)+1)))); got != strings.TrimSuffix(second, "\n") {
		t.Errorf("the second line: %q", got)
	}
	// Questions about the two lines in turn (a duplicate and the first
	// line with its id) read each once.
	before := cr.n.Load()
	for i := range 500 {
		f.Column(rec, fmt.Sprintf("/message/content/%d", i))
		f.LineBytes(entry.Ref(2, int64(len(line)+1)))
	}
	if n := cr.n.Load() - before; n > int64(2*len(second)) {
		t.Errorf("1,000 questions about two lines read %d bytes (the second line has %d)", n, len(second))
	}
	// Five lines asked about: the one asked about longest ago is let go.
	for k := range maxHeldLines + 1 {
		f.LineBytes(entry.Ref(3+k, int64(k)))
		f.LineBytes(entry.Ref(3+k, int64(k))) // held from the second question on
	}
	if len(f.lines) != maxHeldLines || f.lines[0].off != maxHeldLines {
		t.Errorf("held %d lines, the newest at %d", len(f.lines), f.lines[0].off)
	}
	f.DropLine()
	if f.lines != nil {
		t.Error("DropLine kept the lines")
	}
}

// TestLineQuestionsInTurn: questions that alternate between two long
// lines from the first (a finding on a call's line that relates its
// result's line) hold both: each is read about twice, not once a question.
func TestLineQuestionsInTurn(t *testing.T) {
	var data []byte
	var offs []int64
	for range 2 {
		offs = append(offs, int64(len(data)))
		data = append(data, `{"a":[`...)
		for i := range 1000 {
			if i > 0 {
				data = append(data, ',')
			}
			data = fmt.Appendf(data, `{"k":%d}`, i)
		}
		data = append(data, "]}\n"...)
	}
	cr := &countingReader{r: bytes.NewReader(data)}
	f := &File{Copy: cr, Bytes: int64(len(data))}
	for i := range 1000 {
		for k, off := range offs {
			if c := f.Column(entry.Ref(k+1, off), fmt.Sprintf("/a/%d/k", i)); c == 0 {
				t.Fatalf("line %d, block %d: no column", k+1, i)
			}
		}
	}
	if n := cr.n.Load(); n > 3*int64(len(data)) {
		t.Errorf("2,000 questions about two lines of %d bytes in all read %d bytes", len(data), n)
	}
}

// TestLineLocated: a long line's columns and pointers, asked many times,
// are jsonpos's; a short line's too; a Line given other bytes gets a new
// Locator.
func TestLineLocated(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"a":[`)
	for i := range 3000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"k%d":"é€😀 %d"}`, i, i)
	}
	b.WriteString(`],"z":1}`)
	long := []byte(b.String())
	for _, raw := range [][]byte{long, []byte(`{"a":[{"k0":"é"}],"z":1}`)} {
		l := &Line{Raw: raw}
		for _, i := range []int{2999, 0, 1500, 7, 2999} {
			ptr := fmt.Sprintf("/a/%d/k%d", i, i)
			for _, key := range []bool{false, true} {
				want, _ := jsonpos.Find(raw, ptr, key)
				if got := l.Find(ptr, key); got != want {
					t.Fatalf("Find(%s, %v) = %d, want %d", ptr, key, got, want)
				}
				if got, want := l.Column(want), jsonpos.Column(raw, want); got != want {
					t.Fatalf("Column: %d, want %d", got, want)
				}
			}
		}
		if got, want := l.Find("/z", false), bytes.LastIndex(raw, []byte(`1}`)); got != want {
			t.Errorf("/z at %d, want %d", got, want)
		}
	}
	l := &Line{Raw: long}
	l.Column(10)
	other := append([]byte(nil), long...)
	other[len(other)-2] = '2'
	l.Raw = other
	if l.Column(5) != 6 || l.locator().Doc()[len(other)-2] != '2' {
		t.Error("a Line given other bytes kept the Locator of the first")
	}
}
