package edit

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"
)

// randEditsTouching is randEdits with what it never makes: replacements
// and deletions that touch (one ends where the next begins), empty edits
// (no length, no text), insertions at 0 and at the end.
func randEditsTouching(r *rand.Rand, size int) []Edit {
	var es []Edit
	pos := int64(0)
	for pos <= int64(size) && r.Intn(5) != 0 {
		off := pos + int64(r.Intn(3))
		if off > int64(size) {
			break
		}
		n := int64(r.Intn(4))
		if off+n > int64(size) {
			n = int64(size) - off
		}
		txt := []string{"", "x", "\n", "yz", "pqr"}[r.Intn(5)]
		e := Edit{Offset: off, Length: n, Text: txt}
		if len(es) > 0 && Conflict(es[len(es)-1], e) {
			break
		}
		es = append(es, e)
		pos = off + n
		if n == 0 {
			pos++ // an insertion: the next edit may not start at it
		}
	}
	return es
}

// TestComposeTouching: Compose, the view and Equal over edits that touch,
// empty edits and insertions at either end give what building the bytes
// gives, for compositions of several passes.
func TestComposeTouching(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	touching := 0
	for k := 0; k < 4000; k++ {
		orig := make([]byte, r.Intn(16))
		for i := range orig {
			orig[i] = "ab\n"[r.Intn(3)]
		}
		total := []Edit(nil)
		cur := orig
		for pass := 0; pass < 3; pass++ {
			es := randEditsTouching(r, len(cur))
			if err := Check(es, int64(len(cur))); err != nil {
				t.Fatalf("generator: %v %v", err, es)
			}
			for i := 1; i < len(es); i++ {
				if es[i-1].End() == es[i].Offset {
					touching++
				}
			}
			next, err := Bytes(cur, es)
			if err != nil {
				t.Fatal(err)
			}
			v1 := view{read: func(dst []byte, lo, hi int64) []byte { return append(dst, cur[lo:hi]...) }, es: es, pre: prefixDeltas(es)}
			for lo := 0; lo <= len(next); lo++ {
				for hi := lo; hi <= len(next); hi++ {
					if got := v1.appendRange(nil, int64(lo), int64(hi)); !bytes.Equal(got, next[lo:hi]) {
						t.Fatalf("view %q %v [%d:%d] = %q, want %q", cur, es, lo, hi, got, next[lo:hi])
					}
				}
			}
			if ok, err := Equal(cur, es, next); !ok || err != nil {
				t.Fatalf("Equal(%q, %v, %q) = %v, %v", cur, es, next, ok, err)
			}
			for i := range next {
				bad := slices.Clone(next)
				bad[i] ^= 0x20
				if ok, _ := Equal(cur, es, bad); ok {
					t.Fatalf("Equal(%q, %v, %q) = true", cur, es, bad)
				}
			}
			c, err := Compose(orig, total, es)
			if err != nil {
				t.Fatalf("Compose %q %v %v: %v", orig, total, es, err)
			}
			if ref, _ := composeRef(orig, total, es); !slices.Equal(c, ref) {
				t.Fatalf("Compose %q %v %v = %v; the reference gives %v", orig, total, es, c, ref)
			}
			if got, err := Bytes(orig, c); err != nil || !bytes.Equal(got, next) {
				t.Fatalf("Compose %q %v %v = %v -> %q (%v); want %q", orig, total, es, c, got, err, next)
			}
			if ok, err := Equal(next, Invert(orig, c), orig); !ok || err != nil {
				t.Fatalf("Equal(%q, Invert %v, %q) = %v, %v", next, c, orig, ok, err)
			}
			total, cur = c, next
		}
	}
	if touching < 1000 {
		t.Fatalf("the generator made only %d touching pairs", touching)
	}
}

// TestEqualChunkEdges: Equal finds a difference on either side of a chunk
// edge of a clean span, when the spans start at, just before or just
// after a chunk edge.
func TestEqualChunkEdges(t *testing.T) {
	base := bytes.Repeat([]byte("0123456789abcdef"), (2*Chunk+32)/16)
	for _, off := range []int64{0, 1, Chunk - 1, Chunk, Chunk + 1, int64(len(base)) - 1, int64(len(base))} {
		for _, e := range []Edit{{Offset: off, Text: "\n"}, {Offset: off, Length: min(1, int64(len(base))-off)}, {Offset: off, Length: min(2, int64(len(base))-off), Text: "Q"}} {
			if e.Length == 0 && e.Text == "" {
				continue
			}
			es := []Edit{e}
			want, err := Bytes(base, es)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := Equal(base, es, want); !ok || err != nil {
				t.Fatalf("%v: Equal = %v, %v", e, ok, err)
			}
			for _, at := range []int{0, Chunk - 2, Chunk - 1, Chunk, Chunk + 1, int(off) - 1, int(off), int(off) + 1, int(off) + Chunk - 1, int(off) + Chunk, int(off) + Chunk + 1, len(want) - 1} {
				if at < 0 || at >= len(want) {
					continue
				}
				want[at] ^= 0x40
				if ok, _ := Equal(base, es, want); ok {
					t.Fatalf("%v: Equal missed a difference at byte %d", e, at)
				}
				want[at] ^= 0x40
			}
			if ok, _ := Equal(base, es, want[:len(want)-1]); ok {
				t.Fatalf("%v: Equal took one byte less", e)
			}
		}
	}
}

// TestComposeDense: four passes of tens of edits each (touching, empty,
// at either end) over a few hundred bytes, so that the binary searches of
// the view and of Compose run over many edits: random ranges of the view,
// Compose and the inverse check agree with the built bytes and the
// reference.
func TestComposeDense(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	edits := 0
	for k := 0; k < 1500; k++ {
		orig := make([]byte, 50+r.Intn(400))
		for i := range orig {
			orig[i] = "ab\n"[r.Intn(3)]
		}
		var total []Edit
		cur := orig
		for pass := 0; pass < 4; pass++ {
			var es []Edit
			pos := int64(0)
			for pos <= int64(len(cur)) && r.Intn(60) != 0 {
				off := pos + int64(r.Intn(4))
				if off > int64(len(cur)) {
					break
				}
				n := min(int64(r.Intn(4)), int64(len(cur))-off)
				e := Edit{Offset: off, Length: n, Text: []string{"", "x", "\n", "yz", "pqr"}[r.Intn(5)]}
				if len(es) > 0 && Conflict(es[len(es)-1], e) {
					continue
				}
				es = append(es, e)
				pos = off + n
				if n == 0 {
					pos++
				}
			}
			edits += len(es)
			next, _ := Bytes(cur, es)
			v := view{read: func(dst []byte, lo, hi int64) []byte { return append(dst, cur[lo:hi]...) }, es: es, pre: prefixDeltas(es)}
			for j := 0; j < 200; j++ {
				lo := r.Intn(len(next) + 1)
				hi := lo + r.Intn(len(next)-lo+1)
				if got := v.appendRange(nil, int64(lo), int64(hi)); !bytes.Equal(got, next[lo:hi]) {
					t.Fatalf("view %v [%d:%d] = %q, want %q", es, lo, hi, got, next[lo:hi])
				}
			}
			c, err := Compose(orig, total, es)
			if err != nil {
				t.Fatal(err)
			}
			if ref, _ := composeRef(orig, total, es); !slices.Equal(c, ref) {
				t.Fatalf("Compose %q %v %v = %v; the reference gives %v", orig, total, es, c, ref)
			}
			if ok, err := Equal(next, Invert(orig, c), orig); !ok || err != nil {
				t.Fatalf("Equal(Invert %v) = %v, %v", c, ok, err)
			}
			total, cur = c, next
		}
	}
	if edits < 1500*4*20 {
		t.Fatalf("only %d edits in all", edits)
	}
}
