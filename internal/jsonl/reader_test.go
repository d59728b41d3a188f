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

// TestSmallReads: a line read through SmallReads is the same, however
// long, and reading the first line asks for little more than it.
func TestSmallReads(t *testing.T) {
	for _, n := range []int{0, 10, smallReads - 1, smallReads, smallReads + 1, 3*smallReads + 7, 2 << 20} {
		line := bytes.Repeat([]byte{'x'}, n)
		data := append(append(append([]byte{}, line...), '\n'), bytes.Repeat([]byte{'y'}, 4<<20)...)
		cr := &countingReader{r: bytes.NewReader(data)}
		rd := NewReader(SmallReads(cr))
		l, err := rd.Next()
		if err != nil || !bytes.Equal(l.Bytes, line) || !l.Newline {
			t.Fatalf("line of %d bytes: got %d bytes, %v", n, len(l.Bytes), err)
		}
		rd.Release()
		if cr.n > int64(n)+smallReads+1 {
			t.Errorf("line of %d bytes: read %d bytes", n, cr.n)
		}
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
