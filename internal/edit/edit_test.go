package edit

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"
)

func randEdits(r *rand.Rand, size int) []Edit {
	var es []Edit
	pos := int64(0)
	for pos <= int64(size) && r.Intn(4) != 0 {
		off := pos + int64(r.Intn(5))
		if off > int64(size) {
			break
		}
		n := int64(r.Intn(4))
		if off+n > int64(size) {
			n = int64(size) - off
		}
		txt := []string{"", "x", "\n", "yz"}[r.Intn(4)]
		if n == 0 && txt == "" {
			txt = "i"
		}
		es = append(es, Edit{Offset: off, Length: n, Text: txt})
		pos = off + n + 1
	}
	return es
}

func TestApplyInvertCompose(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for k := 0; k < 3000; k++ {
		orig := make([]byte, r.Intn(20))
		for i := range orig {
			orig[i] = "abc\n{}"[r.Intn(6)]
		}
		es := randEdits(r, len(orig))
		if err := Check(es, int64(len(orig))); err != nil {
			t.Fatalf("generator: %v %v", err, es)
		}
		mid, err := Bytes(orig, es)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := Apply(&buf, bytes.NewReader(orig), int64(len(orig)), es); err != nil || !bytes.Equal(buf.Bytes(), mid) {
			t.Fatalf("Apply %q %v = %q, %v; want %q", orig, es, buf.Bytes(), err, mid)
		}
		back, err := Bytes(mid, Invert(orig, es))
		if err != nil || !bytes.Equal(back, orig) {
			t.Fatalf("Invert %q %v: %q %v", orig, es, back, err)
		}
		es2 := randEdits(r, len(mid))
		final, _ := Bytes(mid, es2)
		c, err := Compose(orig, es, es2)
		if err != nil {
			t.Fatalf("Compose %q %v %v: %v", orig, es, es2, err)
		}
		got, err := Bytes(orig, c)
		if err != nil || !bytes.Equal(got, final) {
			t.Fatalf("Compose %q %v %v = %v -> %q (%v); want %q", orig, es, es2, c, got, err, final)
		}
		if ref, _ := composeRef(orig, es, es2); !slices.Equal(c, ref) {
			t.Fatalf("Compose %q %v %v = %v; the walk over the edits gives %v", orig, es, es2, c, ref)
		}
		sh := NewShifter(es)
		for x := int64(0); x <= int64(len(orig)); x++ {
			if a, b := sh.Shift(x), shiftRef(es, x); a != b {
				t.Fatalf("Shifter.Shift(%d) over %v = %d, the walk %d", x, es, a, b)
			}
			if a, b := sh.ShiftEnd(x), shiftEndRef(es, x); a != b {
				t.Fatalf("Shifter.ShiftEnd(%d) over %v = %d, the walk %d", x, es, a, b)
			}
		}
	}
}

func TestConflict(t *testing.T) {
	if !Conflict(Edit{Offset: 3, Text: "a"}, Edit{Offset: 3, Text: "b"}) {
		t.Error("two inserts at one point must conflict")
	}
	if Conflict(Edit{Offset: 0, Length: 2}, Edit{Offset: 3, Length: 1}) {
		t.Error("disjoint edits conflict")
	}
	if !Conflict(Edit{Offset: 0, Length: 3}, Edit{Offset: 2, Length: 2}) {
		t.Error("overlap not seen")
	}
}

// composeRef is Compose as it was first written, each position mapped by a
// walk over the edits: the reference Compose is held to.
func composeRef(orig []byte, first, second []Edit) ([]Edit, error) {
	mid, err := Bytes(orig, first)
	if err != nil {
		return nil, err
	}
	final, err := Bytes(mid, second)
	if err != nil {
		return nil, err
	}
	type span struct{ lo, hi int64 }
	var spans []span
	for _, e := range first {
		spans = append(spans, span{e.Offset, e.End()})
	}
	// back maps a position of mid to the original, widening to the whole
	// span of a first edit when it falls inside or at the edge of its text.
	back := func(p int64, lo bool) int64 {
		var shift int64
		for _, e := range first {
			s := e.Offset + shift
			t := s + int64(len(e.Text))
			if p < s {
				break
			}
			if p <= t {
				if lo {
					return e.Offset
				}
				return e.End()
			}
			shift += e.Delta()
		}
		return p - shift
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
	// Clean bytes between spans are untouched by both passes, so each span's
	// text sits in final between the shifted images of its ends.
	out := make([]Edit, 0, len(merged))
	var delta int64
	for i, s := range merged {
		start := s.lo + delta
		var end int64
		if i+1 < len(merged) {
			// the next clean region starts at s.hi; find its image by the
			// length of final minus everything after it in orig terms
			end = imageOfRef(first, second, s.hi)
		} else {
			end = int64(len(final)) - (int64(len(orig)) - s.hi)
		}
		if end < start {
			return nil, fmt.Errorf("compose: bad span %d-%d", s.lo, s.hi)
		}
		e := Edit{Offset: s.lo, Length: s.hi - s.lo, Text: string(final[start:end])}
		delta += e.Delta()
		if e.Length != 0 || e.Text != "" {
			out = append(out, e)
		}
	}
	return out, nil
}

// imageOfRef maps an original position that ends a merged span to final.
func imageOfRef(first, second []Edit, x int64) int64 {
	y := x
	for _, e := range first {
		if e.End() <= x {
			y += e.Delta()
		}
	}
	z := y
	for _, e := range second {
		if e.End() <= y {
			z += e.Delta()
		}
	}
	return z
}

// shiftRef is Shifter.Shift as first written, a walk over every edit: the
// reference the Shifter is held to.
func shiftRef(es []Edit, x int64) int64 {
	y := x
	for _, e := range es {
		if e.End() <= x && (e.Length != 0 || e.Offset != x) {
			y += e.Delta()
		}
	}
	return y
}

// shiftEndRef is Shifter.ShiftEnd as first written.
func shiftEndRef(es []Edit, x int64) int64 {
	y := x
	for _, e := range es {
		if e.End() <= x {
			y += e.Delta()
		}
	}
	return y
}

// TestViewEqual checks the two readers that never build the edited bytes:
// a view's ranges against the built bytes, and Equal against bytes.Equal,
// including a wrong edit among many.
func TestViewEqual(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for k := 0; k < 3000; k++ {
		orig := make([]byte, r.Intn(30))
		for i := range orig {
			orig[i] = "abc\n{}"[r.Intn(6)]
		}
		es := randEdits(r, len(orig))
		mid, err := Bytes(orig, es)
		if err != nil {
			t.Fatal(err)
		}
		es2 := randEdits(r, len(mid))
		final, _ := Bytes(mid, es2)
		v1 := view{read: func(dst []byte, lo, hi int64) []byte { return append(dst, orig[lo:hi]...) }, es: es, pre: prefixDeltas(es)}
		v2 := view{read: v1.appendRange, es: es2, pre: prefixDeltas(es2)}
		for lo := 0; lo <= len(final); lo++ {
			for hi := lo; hi <= len(final); hi++ {
				if got := v2.appendRange(nil, int64(lo), int64(hi)); !bytes.Equal(got, final[lo:hi]) {
					t.Fatalf("view %q %v %v [%d:%d] = %q, want %q", orig, es, es2, lo, hi, got, final[lo:hi])
				}
			}
		}
		inv := Invert(orig, es)
		if ok, err := Equal(mid, inv, orig); !ok || err != nil {
			t.Fatalf("Equal(%q, Invert %v, %q) = %v, %v", mid, inv, orig, ok, err)
		}
		for i := range inv {
			bad := slices.Clone(inv)
			switch {
			case bad[i].Text != "":
				b := []byte(bad[i].Text)
				b[r.Intn(len(b))] ^= 1
				bad[i].Text = string(b)
			default:
				bad[i].Text = "q"
			}
			back, _ := Bytes(mid, bad)
			if ok, _ := Equal(mid, bad, orig); ok != bytes.Equal(back, orig) {
				t.Fatalf("Equal(%q, %v, %q) = %v; the built bytes %q", mid, bad, orig, ok, back)
			}
		}
		if len(orig) > 0 {
			other := slices.Clone(orig)
			other[r.Intn(len(other))] ^= 1
			if ok, _ := Equal(mid, inv, other); ok {
				t.Fatalf("Equal(%q, %v, %q) = true", mid, inv, other)
			}
		}
	}
	if _, err := Equal([]byte("ab"), []Edit{{Offset: 1, Length: 5}}, []byte("a")); err == nil {
		t.Fatal("Equal with an edit outside the bytes: no error")
	}
}

// TestChunked: Bytes and Equal over spans of several Chunks give what a
// single copy and comparison give, and Equal finds a difference in any
// chunk.
func TestChunked(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	orig := make([]byte, 3*Chunk+123)
	r.Read(orig)
	es := []Edit{{Offset: 10, Length: 2, Text: "ab"}, {Offset: 2*Chunk + 7, Length: 0, Text: "\n"}, {Offset: int64(len(orig)) - 5, Length: 5}}
	var want []byte
	want = append(want, orig[:10]...)
	want = append(want, "ab"...)
	want = append(want, orig[12:2*Chunk+7]...)
	want = append(want, '\n')
	want = append(want, orig[2*Chunk+7:len(orig)-5]...)
	got, err := Bytes(orig, es)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("Bytes over several chunks: %v, equal %v", err, bytes.Equal(got, want))
	}
	if ok, err := Equal(orig, es, want); !ok || err != nil {
		t.Fatalf("Equal over several chunks = %v, %v", ok, err)
	}
	for _, at := range []int{0, Chunk - 1, Chunk, Chunk + 1, 2*Chunk + 100, len(want) - 1} {
		bad := bytes.Clone(want)
		bad[at] ^= 1
		if ok, _ := Equal(orig, es, bad); ok {
			t.Fatalf("Equal missed a difference at byte %d", at)
		}
	}
}
