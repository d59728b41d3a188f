package jsonl

import (
	"strings"
	"testing"
)

// TestFrame: each line comes out of the reader with its framing defects,
// and Parse only when none stops parsing.
func TestFrame(t *testing.T) {
	type want struct {
		blank      bool
		nul, bad   int
		bom, parse bool
	}
	cases := []struct {
		name, in string
		max      int
		want     []want
	}{
		{"object", "{}\n", 0, []want{{nul: -1, bad: -1, parse: true}}},
		{"blank", " \t\n\n", 0, []want{{blank: true, nul: -1, bad: -1}, {blank: true, nul: -1, bad: -1}}},
		{"nul", "{\"a\":\"\x00\"}\n", 0, []want{{nul: -1, bad: -1, parse: true}}}, // left to FindNUL
		{"bad utf-8", "{\"a\":\"\xff\x00\"}\n", 0, []want{{nul: 7, bad: 6}}},
		{"bom", "\xef\xbb\xbf{}\n{}\n", 0, []want{{nul: -1, bad: -1, bom: true, parse: true}, {nul: -1, bad: -1, parse: true}}},
		{"bom then nul", "\xef\xbb\xbf{\x00}\n", 0, []want{{nul: -1, bad: -1, bom: true, parse: true}}}, // left to FindNUL
		{"bom not first", "{}\n\xef\xbb\xbf{}\n", 0, []want{{nul: -1, bad: -1, parse: true}, {nul: -1, bad: -1, parse: true}}},
		{"cut", "{\"a\":\"\x00bcdefgh\"}\n", 4, []want{{nul: -1, bad: -1}}},
		{"cut nul", "{\"\x00bcdefgh\"}\n", 4, []want{{nul: 2, bad: -1}}},
	}
	for _, c := range cases {
		r := NewReader(strings.NewReader(c.in))
		r.Frame = true
		if c.max > 0 {
			r.MaxLine = c.max
		}
		for i, w := range c.want {
			l, err := r.Next()
			if err != nil {
				t.Fatalf("%s: line %d: %v", c.name, i+1, err)
			}
			got := want{l.Blank, l.NUL, l.BadUTF8, l.BOM, l.Parse}
			if got != w {
				t.Errorf("%s: line %d: got %+v, want %+v", c.name, i+1, got, w)
			}
		}
		r.Release()
	}
	l := Line{Bytes: []byte("{\"a\":\"\x00\"}")}
	if l.FindNUL() != 6 || l.NUL != 6 {
		t.Errorf("FindNUL: %d", l.NUL)
	}
}

// TestFrameBOM: the byte order mark is left out of the first line's bytes,
// offset and length, as the reader of Claude Code leaves it out.
func TestFrameBOM(t *testing.T) {
	r := NewReader(strings.NewReader("\xef\xbb\xbf{\"a\":1}\n{}\n"))
	r.Frame = true
	defer r.Release()
	l, err := r.Next()
	if err != nil || !l.BOM || string(l.Bytes) != `{"a":1}` || l.Offset != 3 || l.Length != 7 || !l.Parse {
		t.Fatalf("line 1: %+v %v", l, err)
	}
	l, err = r.Next()
	if err != nil || l.BOM || l.Offset != 11 {
		t.Fatalf("line 2: %+v %v", l, err)
	}
}
