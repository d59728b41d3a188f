package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// errAt is a file whose reads past at fail with an error other than EOF.
type errAt struct {
	b  []byte
	at int64
}

var errDisk = errors.New("disk")

func (f errAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.at {
		n := copy(p, f.b[off:max(off, f.at)])
		return n, errDisk
	}
	return copy(p, f.b[off:]), nil
}

// TestStartsWithChunkEdges: startsWith reads want then more a chunk at a
// time: a difference on either side of a chunk edge, in want or in more,
// a file one byte short or longer, and a read error are each told apart,
// for a want that ends before, at and after a chunk edge.
func TestStartsWithChunkEdges(t *testing.T) {
	const c = 1 << 20
	file := bytes.Repeat([]byte("{\"a\":1}\n"), (3*c)/8)
	for _, split := range []int{0, 1, c - 1, c, c + 1, 2*c + 3, len(file) - 1, len(file)} {
		for _, end := range []int{split, split + 1, len(file) - 1, len(file)} {
			if end < split || end > len(file) {
				continue
			}
			want, more := file[:split], file[split:end]
			if ok, err := startsWith(bytes.NewReader(file), want, more); !ok || err != nil {
				t.Fatalf("split %d end %d: the file's own bytes: %v %v", split, end, ok, err)
			}
			if end < len(file) {
				continue
			}
			if ok, err := startsWith(bytes.NewReader(file[:end-1]), want, more); ok || err != nil {
				t.Fatalf("split %d end %d: a file one byte short: %v %v", split, end, ok, err)
			}
			if ok, err := startsWith(errAt{file, int64(end) - 1}, want, more); ok || !errors.Is(err, errDisk) {
				t.Fatalf("split %d end %d: a read error: %v %v", split, end, ok, err)
			}
			for _, at := range []int{0, c - 1, c, c + 1, split - 1, split, split + c - 1, split + c, split + c + 1, end - 1} {
				if at < 0 || at >= end {
					continue
				}
				bad := bytes.Clone(file)
				bad[at] ^= 0x40
				if ok, err := startsWith(bytes.NewReader(bad), want, more); ok || err != nil {
					t.Fatalf("split %d end %d: a difference at %d: %v %v", split, end, at, ok, err)
				}
			}
		}
	}
}

// TestCarriedAfterLast: the bytes carried over are joined to what the
// file holds first by its last byte only (engine.last), whether the new
// bytes are empty or end inside a line, and whether the lines appended
// before the rename, written late to the old file at the rename, and
// appended to the new file then, start with a newline or not: the file
// is what joining each to the whole of what came before gives.
func TestCarriedAfterLast(t *testing.T) {
	origs := []string{"{\"a\":1}\n{\"b\":2}\n", "{\"a\":1}\n{\"b\""}
	news := []string{"", "{\"a\":1}\n", "{\"a\":1}"}
	tails := []string{"", "{\"d\":4}\n", "\n{\"d\":4}\n"}
	lates := []string{"", "{\"late\":1}\n", "\n{\"late\":1}\n"}
	for _, o := range origs {
		for _, nw := range news {
			for _, tail := range tails {
				for _, late := range lates {
					bak, file := setup(t)
					writeOld(t, file, []byte(o))
					var held *os.File
					s := &Store{Dir: bak}
					s.Appended = func(p string) {
						if tail != "" {
							_ = appendLine(p, []byte(tail))
						}
						held, _ = os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
					}
					next := "{\"next\":2}\n"
					s.Step = func(name string) error {
						if name == "rename" && held != nil {
							if late != "" {
								_, _ = held.Write([]byte(late))
							}
							held.Close()
							held = nil
							_ = appendLine(file, []byte(next))
						}
						return nil
					}
					c := Change{Path: file, Orig: []byte(o), New: []byte(nw)}
					if _, _, err := s.Write("fix", "test", []Change{c}); err != nil {
						t.Fatalf("%q %q %q %q: %v", o, nw, tail, late, err)
					}
					// What the old engine, joining to all it held, gave.
					want := []byte(nw)
					prevNL := endsNL([]byte(o))
					if tail != "" {
						want = append(want, joinTail(want, []byte(tail), prevNL)...)
						prevNL = true
					}
					before := endsNL(want)
					if late != "" {
						// a second round: the line appended to the new
						// file is carried after the late bytes
						want = append(want, joinTail(want, []byte(late), prevNL)...)
						want = append(want, joinTail(want, []byte(next), before)...)
					} else {
						want = append(want, next...) // appended to the file as it is
					}
					if got := read(t, file); string(got) != string(want) {
						t.Fatalf("%q %q %q %q: got %q, want %q", o, nw, tail, late, got, want)
					}
				}
			}
		}
	}
}

// TestReadUpToShorter: undo reads the file to the size its stat gave; a
// file that shrank since, to nothing included, is read as it is (the
// hashes then judge it, as io.ReadAll did), not refused with a bare
// "EOF"; one that grew is read to the size.
func TestReadUpToShorter(t *testing.T) {
	for _, c := range []struct {
		file string
		size int64
		want string
	}{{"", 5, ""}, {"ab", 5, "ab"}, {"abcdefg", 5, "abcde"}, {"", 0, ""}, {"abcde", 5, "abcde"}} {
		got, err := readUpTo(strings.NewReader(c.file), c.size)
		if err != nil || string(got) != c.want {
			t.Errorf("readUpTo(%q, %d) = %q, %v; want %q", c.file, c.size, got, err, c.want)
		}
	}
}

// TestLiveAppenderLarge: TestLiveAppenderDuringWrite over a file of a few
// MiB whose new bytes differ from it past the first chunk: the read-back
// (the new bytes then the carried lines, a chunk at a time) passes, no
// appended line is lost or moved, and the undo gives the exact bytes
// back, the lines appended meanwhile after them.
func TestLiveAppenderLarge(t *testing.T) {
	for _, mode := range []string{"link", "copy"} {
		t.Run(mode, func(t *testing.T) {
			bak, file := setup(t)
			var b bytes.Buffer
			for i := 0; b.Len() < 3<<20; i++ {
				fmt.Fprintf(&b, "{\"type\":\"assistant\",\"k\":%d}\n", i)
				if i == 40000 || i == 80000 {
					b.WriteString("\n")
				}
			}
			o := b.Bytes()
			writeOld(t, file, o)
			nw := bytes.ReplaceAll(o, []byte("\n\n"), []byte("\n"))
			want := bytes.Clone(nw)
			s := &Store{Dir: bak, copyBackup: mode == "copy"}
			stop := make(chan struct{})
			a := startAppender(file, stop, 5, 0)
			s.Appended = waitFor(a, 3)
			_, w, err := s.Write("fix", "test", []Change{{Path: file, Orig: o, New: nw}})
			close(stop)
			<-a.done
			if err != nil || len(a.errs) > 0 {
				t.Fatal(err, a.errs)
			}
			if got := read(t, file); string(got) != string(want)+a.lines() {
				t.Fatalf("after the fix (%d lines appended, %d bytes carried): %d bytes, want %d", a.n, w[0].Carried, len(got), len(want)+len(a.lines()))
			}
			if !bytes.Equal(nw, want) {
				t.Fatal("the replace changed the caller's bytes")
			}
			s.Force = true
			stop = make(chan struct{})
			c := startAppender(file, stop, 5, a.n)
			s.Appended = waitFor(c, a.n+3)
			if _, err := s.Undo("last"); err != nil {
				t.Fatal(err)
			}
			close(stop)
			<-c.done
			if got := read(t, file); string(got) != string(o)+c.lines() {
				t.Fatalf("after the undo: %d bytes, want %d", len(got), len(o)+len(c.lines()))
			}
		})
	}
}
