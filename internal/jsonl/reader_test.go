package jsonl

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func readAll(t *testing.T, r *Reader) []Line {
	t.Helper()
	var out []Line
	for {
		l, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		l.Bytes = append([]byte(nil), l.Bytes...)
		out = append(out, l)
	}
}

func TestReaderFraming(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		nl   []bool
	}{
		{"", nil, nil},
		{"a\n", []string{"a"}, []bool{true}},
		{"a", []string{"a"}, []bool{false}},
		{"a\nb", []string{"a", "b"}, []bool{true, false}},
		{"a\n\nb\n", []string{"a", "", "b"}, []bool{true, true, true}},
		{"\n", []string{""}, []bool{true}},
		{"a\r\nb\r\n", []string{"a\r", "b\r"}, []bool{true, true}},
	}
	for _, c := range cases {
		lines := readAll(t, NewReader(strings.NewReader(c.in)))
		if len(lines) != len(c.want) {
			t.Fatalf("%q: got %d lines, want %d", c.in, len(lines), len(c.want))
		}
		var off int64
		for i, l := range lines {
			if string(l.Bytes) != c.want[i] || l.Newline != c.nl[i] || l.Num != i+1 || l.Offset != off {
				t.Errorf("%q line %d: got %+v", c.in, i+1, l)
			}
			off += l.Length + 1
		}
	}
}

func TestReaderLongLine(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 3<<20)
	in := append(append([]byte("{}\n"), long...), []byte("\nz\n")...)
	lines := readAll(t, NewReader(bytes.NewReader(in)))
	if len(lines) != 3 || len(lines[1].Bytes) != len(long) || lines[2].Offset != int64(3+len(long)+1) {
		t.Fatalf("bad framing of a long line: %d lines", len(lines))
	}
}

func TestReaderMaxLine(t *testing.T) {
	r := NewReader(strings.NewReader("abcdefgh\nxy\n"))
	r.MaxLine = 4
	lines := readAll(t, r)
	if len(lines) != 2 || string(lines[0].Bytes) != "abcd" || !lines[0].Cut || lines[0].Length != 8 {
		t.Fatalf("got %+v", lines)
	}
	if string(lines[1].Bytes) != "xy" || lines[1].Cut || lines[1].Offset != 9 {
		t.Fatalf("got %+v", lines[1])
	}
}
