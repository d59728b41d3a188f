package jsonl

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestValidUTF8 holds validUTF8 to utf8.Valid on random mixes of ASCII,
// valid sequences of every length, their pieces and stray bytes, at every
// length across the 32-byte blocks, and on every pair and triple of bytes
// put at a block's edges.
func TestValidUTF8(t *testing.T) {
	if !wideUTF8 {
		t.Skip("no AVX2: validUTF8 is utf8.Valid")
	}
	pieces := [][]byte{
		[]byte("a"), []byte("{\"k\":1}"), []byte("é"), []byte("─"), []byte("😀"), []byte("\U0010FFFF"), []byte("\uFFFD"),
		{0x80}, {0xBF}, {0xC0}, {0xC1, 0x80}, {0xC2}, {0xE0, 0x80, 0x80}, {0xE0, 0xA0}, {0xED, 0xA0, 0x80},
		{0xED, 0x9F, 0xBF}, {0xEF, 0xBF, 0xBF}, {0xF0, 0x80, 0x80, 0x80}, {0xF0, 0x90, 0x80}, {0xF4, 0x8F, 0xBF, 0xBF},
		{0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80}, {0xF8}, {0xFF}, {0}, {0x7F},
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	check := func(b []byte) {
		t.Helper()
		if got, want := validUTF8(b), utf8.Valid(b); got != want {
			t.Fatalf("validUTF8(% x) = %v, utf8.Valid %v", b, got, want)
		}
	}
	for range 20000 {
		var b []byte
		n := rnd.IntN(200)
		for len(b) < n {
			if rnd.IntN(4) == 0 {
				b = append(b, pieces[rnd.IntN(len(pieces))]...)
			} else {
				b = append(b, pieces[rnd.IntN(7)]...) // mostly valid
			}
		}
		check(b)
	}
	// Every pair and every triple of interesting bytes at each spot near
	// the block edges (of 200 bytes: the ASCII around them is passed 64
	// bytes at a time, before and after).
	var edge []byte
	for c := range 256 {
		if c < 0x80 && c != 'a' && c != 0 {
			continue
		}
		edge = append(edge, byte(c))
	}
	base := make([]byte, 200)
	for i := range base {
		base[i] = 'x'
	}
	for _, at := range []int{28, 29, 30, 31, 32, 33, 60, 61, 62, 63, 64, 65, 66, 67, 94, 95, 96, 97, 126, 127, 128, 129, 158, 159, 160, 161, 190, 191, 192} {
		for _, x := range edge {
			for _, y := range edge {
				b := append([]byte(nil), base...)
				b[at], b[at+1] = x, y
				check(b)
				for _, z := range []byte{0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 'a', 0xC2, 0xE0, 0xF0} {
					b[at+2] = z
					check(b)
					b[at+3] = 0x80
					check(b)
					b[at+3] = 'x'
				}
			}
		}
	}
}

func FuzzValidUTF8(f *testing.F) {
	f.Add([]byte("héllo wörld ─ 😀 and some ascii to pass thirty-two bytes"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validUTF8(b), utf8.Valid(b); got != want {
			t.Fatalf("validUTF8(% x) = %v, utf8.Valid %v", b, got, want)
		}
	})
}

// BenchmarkValidUTF8 is the framing's UTF-8 check alone over the lines of
// benchInput, a 1 MiB piece at a time (a line in the reader's buffer is
// checked while it is in cache).
func BenchmarkValidUTF8(b *testing.B) {
	data := benchInput(b)
	if len(data) > 1<<20 {
		data = data[:1<<20]
	}
	lines := bytes.Split(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		for _, l := range lines {
			validUTF8(l)
		}
	}
}
