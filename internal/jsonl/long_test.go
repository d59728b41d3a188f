package jsonl

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// TestLongLinesOneAtATime: of two readers sharing a LongLines, the second
// to meet a long line waits until the first lets its line go; both read
// every line whole, and the long-line buffer is reused.
func TestLongLinesOneAtATime(t *testing.T) {
	long := strings.Repeat("x", 3*bufSize)
	in := long + "\nshort\n" + long + "y\n"
	var ll LongLines
	r1, r2 := NewReader(strings.NewReader(in)), NewReader(strings.NewReader(in))
	r1.Long, r2.Long = &ll, &ll
	defer r1.Release()
	defer r2.Release()

	l, err := r1.Next()
	if err != nil || string(l.Bytes) != long || l.Cut {
		t.Fatalf("r1 line 1: %v, %d bytes, cut %v", err, len(l.Bytes), l.Cut)
	}
	done := make(chan Line)
	go func() {
		l, _ := r2.Next()
		done <- l
	}()
	select {
	case <-done:
		t.Fatal("r2 holds a long line while r1 holds one")
	case <-time.After(50 * time.Millisecond):
	}
	if l, err = r1.Next(); err != nil || string(l.Bytes) != "short" {
		t.Fatalf("r1 line 2: %v %q", err, l.Bytes)
	}
	if l2 := <-done; string(l2.Bytes) != long {
		t.Fatalf("r2 line 1: %d bytes", len(l2.Bytes))
	}
	if l, err = r2.Next(); err != nil || string(l.Bytes) != "short" {
		t.Fatalf("r2 line 2: %v %q", err, l.Bytes)
	}
	if l, err = r2.Next(); err != nil || string(l.Bytes) != long+"y" {
		t.Fatalf("r2 line 3: %v, %d bytes", err, len(l.Bytes))
	}
	if _, err = r2.Next(); err != io.EOF {
		t.Fatalf("r2: %v, want EOF", err)
	}
	if l, err = r1.Next(); err != nil || !bytes.Equal(l.Bytes, []byte(long+"y")) {
		t.Fatalf("r1 line 3: %v, %d bytes", err, len(l.Bytes))
	}
	r1.Release()
	if !ll.mu.TryLock() {
		t.Fatal("the budget is still held after Release")
	}
	ll.mu.Unlock()
	if cap(ll.buf) < 3*bufSize {
		t.Errorf("the long-line buffer was not kept (cap %d)", cap(ll.buf))
	}
}
