package jsonl

import (
	"runtime"
	"sync"
)

// LongLines lets the readers of several goroutines share one budget for
// lines longer than their buffer (1 MiB): at most one such line is held at
// a time, in one buffer that is reused from line to line. A reader that
// meets a long line while another reader holds one waits for it to be
// released, so the memory of all lines in flight together is bounded by
// MaxLine plus 1 MiB per reader, whatever the number of goroutines, and no
// line is cut because of the others (the findings do not depend on -j).
//
// A reader holds the long line from the moment it overflows its buffer
// until its next call to Next or Release. A goroutine must not read a
// second file with the same LongLines while one of its readers holds a
// long line.
type LongLines struct {
	mu  sync.Mutex
	buf []byte // the buffer of the long line, kept for the next one
}

// BufferSize is the size of a reader's own buffer: lines that fit are not
// copied and need no share of the long-line budget.
const BufferSize = bufSize

// acquire waits for the long-line budget and returns its buffer.
func (ll *LongLines) acquire() []byte {
	ll.mu.Lock()
	b := ll.buf[:0]
	ll.buf = nil
	return b
}

// release gives the budget back, keeping buf for the next long line
// unless it is huge: then it is collected at once, before the next reader
// may start a long line, so that the next huge line reuses the memory of
// this one (and of its parse) instead of adding to it, whatever the
// timing of the jobs (see bench/longlines.sh).
func (ll *LongLines) release(buf []byte) {
	if cap(buf) > 64<<20 {
		runtime.GC()
	} else {
		ll.buf = buf[:0]
	}
	ll.mu.Unlock()
}
