package edit

import (
	"bytes"
	"math/rand"
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
