// Package edit turns a file's original bytes and a list of byte splices into new bytes, streaming, and inverts splices.
package edit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
)

// Edit replaces Length bytes at Offset of the original with Text. Offsets
// are always against the bytes the edit was planned on: no edit sees the
// effect of another. Text is a Go string holding raw bytes.
type Edit struct {
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
	Text   string `json:"text"`
}

// End is the offset just past the replaced bytes.
func (e Edit) End() int64 { return e.Offset + e.Length }

// Delta is how much the edit grows the file (negative: shrinks).
func (e Edit) Delta() int64 { return int64(len(e.Text)) - e.Length }

// ErrOverlap reports two edits that touch the same bytes.
var ErrOverlap = errors.New("edits overlap")

// Sort orders edits by offset, then by end.
func Sort(es []Edit) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Offset != es[j].Offset {
			return es[i].Offset < es[j].Offset
		}
		return es[i].End() < es[j].End()
	})
}

// Conflict reports whether a and b cannot both apply: they share a byte, or
// both insert at, or one deletes up to, the same point.
func Conflict(a, b Edit) bool {
	if a.Offset > b.Offset {
		a, b = b, a
	}
	return b.Offset < a.End() || b.Offset == a.End() && (a.Length == 0 || b.Length == 0 || a.Offset == b.Offset)
}

// Check verifies that es are sorted, free of conflicts and inside a file of size bytes.
func Check(es []Edit, size int64) error {
	for i, e := range es {
		if e.Offset < 0 || e.Length < 0 || e.End() > size {
			return fmt.Errorf("edit at %d+%d is outside the %d-byte file", e.Offset, e.Length, size)
		}
		if i > 0 {
			p := es[i-1]
			if p.Offset > e.Offset || p.Offset == e.Offset && p.End() > e.End() {
				return fmt.Errorf("edits not sorted at %d", e.Offset)
			}
			if Conflict(p, e) {
				return fmt.Errorf("%w at %d and %d", ErrOverlap, p.Offset, e.Offset)
			}
		}
	}
	return nil
}

// Apply copies src to dst with es applied, holding only a buffer in memory.
// src must yield exactly the bytes es were planned on (size bytes).
func Apply(dst io.Writer, src io.Reader, size int64, es []Edit) (written int64, err error) {
	if err := Check(es, size); err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(dst, 64<<10)
	var pos int64
	copyN := func(n int64) error {
		c, err := io.CopyN(w, src, n)
		written += c
		pos += c
		if err == io.EOF {
			return fmt.Errorf("source ended at byte %d, want %d", pos, size)
		}
		return err
	}
	for _, e := range es {
		if err := copyN(e.Offset - pos); err != nil {
			return written, err
		}
		if _, err := io.CopyN(io.Discard, src, e.Length); err != nil {
			return written, fmt.Errorf("source ended inside the edit at %d", e.Offset)
		}
		pos += e.Length
		n, err := w.WriteString(e.Text)
		written += int64(n)
		if err != nil {
			return written, err
		}
	}
	if err := copyN(size - pos); err != nil {
		return written, err
	}
	return written, w.Flush()
}

// Bytes applies es to orig in memory.
func Bytes(orig []byte, es []Edit) ([]byte, error) {
	if err := Check(es, int64(len(orig))); err != nil {
		return nil, err
	}
	size := int64(len(orig))
	for _, e := range es {
		size += e.Delta()
	}
	out := make([]byte, 0, size)
	var pos int64
	for _, e := range es {
		out = appendChunked(out, orig[pos:e.Offset])
		out = append(out, e.Text...)
		pos = e.End()
	}
	return appendChunked(out, orig[pos:]), nil
}

// Chunk is how many bytes of a large file edit copies or compares in one
// go. A single copy of hundreds of MB cannot be preempted: the garbage
// collector, which must stop the goroutine to scan its stack, spins and
// signals it until the copy ends, and the copy runs several times slower
// under the signals (measured on a 500 MB transcript).
const Chunk = 1 << 20

// appendChunked appends src to dst a Chunk at a time, each through a call
// the scheduler can preempt at.
func appendChunked(dst, src []byte) []byte {
	for len(src) > Chunk {
		dst = appendStep(dst, src[:Chunk])
		src = src[Chunk:]
	}
	return appendStep(dst, src)
}

//go:noinline
func appendStep(dst, src []byte) []byte { return append(dst, src...) }

// equalChunked is bytes.Equal a Chunk at a time (appendChunked).
func equalChunked(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for len(a) > Chunk {
		if !equalStep(a[:Chunk], b[:Chunk]) {
			return false
		}
		a, b = a[Chunk:], b[Chunk:]
	}
	return equalStep(a, b)
}

//go:noinline
func equalStep(a, b []byte) bool { return bytes.Equal(a, b) }

// Invert returns the edits that turn the result of es back into orig: each
// puts the original bytes back, at its offset in the new bytes.
func Invert(orig []byte, es []Edit) []Edit {
	es = Coalesce(es)
	out := make([]Edit, len(es))
	var shift int64
	for i, e := range es {
		out[i] = Edit{Offset: e.Offset + shift, Length: int64(len(e.Text)), Text: string(orig[e.Offset:e.End()])}
		shift += e.Delta()
	}
	return out
}

// Coalesce joins sorted edits that touch (one ends where the next begins)
// into one: the result is the same, and no two images touch, so the
// inverse edits are valid too.
func Coalesce(es []Edit) []Edit {
	var out []Edit
	for _, e := range es {
		if n := len(out); n > 0 && out[n-1].End() == e.Offset {
			out[n-1].Length += e.Length
			out[n-1].Text += e.Text
			continue
		}
		out = append(out, e)
	}
	return out
}

// Compose merges first (against orig) and second (against the result of
// first) into one list of edits against orig giving the same final bytes.
// Edits of the two that touch are merged into one. Both lists are sorted
// and free of conflicts (Check checks them), so every position is mapped
// through them by a binary search: tens of thousands of edits compose in
// n log n, not n².
func Compose(orig []byte, first, second []Edit) ([]Edit, error) {
	if err := Check(first, int64(len(orig))); err != nil {
		return nil, err
	}
	pre1, pre2 := prefixDeltas(first), prefixDeltas(second)
	midSize := int64(len(orig)) + pre1[len(first)]
	if err := Check(second, midSize); err != nil {
		return nil, err
	}
	finalSize := midSize + pre2[len(second)]
	// The intermediate and final bytes are never built: each span's text
	// is read from them through the edits (a file of hundreds of MB would
	// otherwise be copied twice per pass).
	mid := view{read: func(dst []byte, lo, hi int64) []byte { return append(dst, orig[lo:hi]...) }, es: first, pre: pre1}
	final := view{read: mid.appendRange, es: second, pre: pre2}
	type span struct{ lo, hi int64 }
	spans := make([]span, 0, len(first)+len(second))
	for _, e := range first {
		spans = append(spans, span{e.Offset, e.End()})
	}
	// back maps a position of mid to the original, widening to the whole
	// span of a first edit when it falls inside or at the edge of its text.
	// The first edit whose text ends at or after p in mid is the only one
	// p can fall in (their texts follow one another in mid).
	back := func(p int64, lo bool) int64 {
		i := sort.Search(len(first), func(i int) bool {
			return first[i].Offset+pre1[i]+int64(len(first[i].Text)) >= p
		})
		if i < len(first) && p >= first[i].Offset+pre1[i] {
			if lo {
				return first[i].Offset
			}
			return first[i].End()
		}
		return p - pre1[i]
	}
	for _, e := range second {
		spans = append(spans, span{back(e.Offset, true), back(e.End(), false)})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	var merged []span
	for _, s := range spans {
		if n := len(merged); n > 0 && s.lo <= merged[n-1].hi {
			if s.hi > merged[n-1].hi {
				merged[n-1].hi = s.hi
			}
			continue
		}
		merged = append(merged, s)
	}
	// imageOf maps an original position that ends a merged span to final:
	// past the edits of first that end by x, then those of second that end
	// by its image in mid.
	imageOf := func(x int64) int64 {
		y := x + pre1[endsBy(first, x)]
		return y + pre2[endsBy(second, y)]
	}
	// Clean bytes between spans are untouched by both passes, so each span's
	// text sits in final between the shifted images of its ends.
	out := make([]Edit, 0, len(merged))
	var delta int64
	for i, s := range merged {
		start := s.lo + delta
		var end int64
		if i+1 < len(merged) {
			end = imageOf(s.hi)
		} else {
			end = finalSize - (int64(len(orig)) - s.hi)
		}
		if end < start {
			return nil, fmt.Errorf("compose: bad span %d-%d", s.lo, s.hi)
		}
		e := Edit{Offset: s.lo, Length: s.hi - s.lo, Text: string(final.appendRange(nil, start, end))}
		delta += e.Delta()
		if e.Length != 0 || e.Text != "" {
			out = append(out, e)
		}
	}
	return out, nil
}

// view is the bytes read gives with sorted, conflict-free es applied,
// read by ranges without being built; pre is prefixDeltas(es).
type view struct {
	read func(dst []byte, lo, hi int64) []byte // appends the base's bytes lo to hi
	es   []Edit
	pre  []int64
}

// appendRange appends the bytes lo to hi of the view to dst.
func (v *view) appendRange(dst []byte, lo, hi int64) []byte {
	n := len(v.es)
	// The first edit whose text ends after lo in the view: lo lies in it
	// or in the clean bytes before it (their texts follow one another).
	k := sort.Search(n, func(i int) bool {
		return v.es[i].Offset+v.pre[i]+int64(len(v.es[i].Text)) > lo
	})
	for p := lo; p < hi; {
		if k == n {
			return v.read(dst, p-v.pre[n], hi-v.pre[n])
		}
		e := v.es[k]
		ts := e.Offset + v.pre[k] // where its text starts in the view
		te := ts + int64(len(e.Text))
		switch {
		case p < ts: // clean bytes before edit k
			q := min(hi, ts)
			dst = v.read(dst, p-v.pre[k], q-v.pre[k])
			p = q
		case p < te:
			q := min(hi, te)
			dst = append(dst, e.Text[p-ts:q-ts]...)
			p = q
		default:
			k++
		}
	}
	return dst
}

// Equal reports whether base with es applied is want, without building
// it; an error when es do not apply to base.
func Equal(base []byte, es []Edit, want []byte) (bool, error) {
	if err := Check(es, int64(len(base))); err != nil {
		return false, err
	}
	size := int64(len(base))
	for _, e := range es {
		size += e.Delta()
	}
	if size != int64(len(want)) {
		return false, nil
	}
	var pos, w int64
	for _, e := range es {
		n := e.Offset - pos
		if !equalChunked(base[pos:e.Offset], want[w:w+n]) {
			return false, nil
		}
		w += n
		if string(want[w:w+int64(len(e.Text))]) != e.Text {
			return false, nil
		}
		w += int64(len(e.Text))
		pos = e.End()
	}
	return equalChunked(base[pos:], want[w:]), nil
}

// prefixDeltas is, for each i up to len(es), the sum of the deltas of
// es[:i].
func prefixDeltas(es []Edit) []int64 {
	pre := make([]int64, len(es)+1)
	for i, e := range es {
		pre[i+1] = pre[i] + e.Delta()
	}
	return pre
}

// endsBy is the number of edits of sorted, conflict-free es that end at or
// before x (their ends do not decrease).
func endsBy(es []Edit, x int64) int {
	return sort.Search(len(es), func(i int) bool { return es[i].End() > x })
}

// Shifter maps positions of the original through sorted, conflict-free
// edits, by a binary search each.
type Shifter struct {
	es  []Edit
	pre []int64
}

// NewShifter indexes es, which must be sorted and free of conflicts.
func NewShifter(es []Edit) *Shifter { return &Shifter{es, prefixDeltas(es)} }

// Shift maps a position x of the original that no edit covers to its
// position after the edits.
func (s *Shifter) Shift(x int64) int64 {
	n := endsBy(s.es, x)
	y := x + s.pre[n]
	// An insertion exactly at x is after it: the last edit ending by x,
	// if any is.
	if n > 0 && s.es[n-1].Length == 0 && s.es[n-1].Offset == x {
		y -= s.es[n-1].Delta()
	}
	return y
}

// ShiftEnd is Shift, except that an insertion exactly at x counts as
// before it.
func (s *Shifter) ShiftEnd(x int64) int64 { return x + s.pre[endsBy(s.es, x)] }
