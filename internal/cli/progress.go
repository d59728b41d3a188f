package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/ccvet/ccvet/internal/layout"
)

// Progress on standard error: only on a terminal, only for a run that
// lasts more than progressDelay, redrawn in place at most every
// progressEvery, and erased before the report is written.
var (
	progressDelay = time.Second
	progressEvery = 100 * time.Millisecond
	// isTerminal says whether w is a terminal; tests replace it.
	isTerminal = func(w io.Writer) bool {
		f, ok := w.(*os.File)
		return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
	}
)

// progress shows how far a run has got. The zero of its totals is valid;
// a progress that is off does nothing at all.
type progress struct {
	on         bool
	w          io.Writer
	totalFiles int
	totalBytes int64

	mu     sync.Mutex
	files  int
	bytes  int64
	start  time.Time
	width  int // of the line on screen, to erase it
	stop   chan struct{}
	done   chan struct{}
	closed bool
}

// newProgress prepares progress for the files found; it shows only if
// enabled and w is a terminal.
func newProgress(w io.Writer, enabled bool, found *layout.Result) *progress {
	p := &progress{on: enabled && isTerminal(w), w: w}
	if !p.on {
		return p
	}
	p.totalFiles, p.totalBytes = len(found.Files), inputSize(found)
	return p
}

// inputSize is the sum of the sizes of the files found.
func inputSize(found *layout.Result) int64 {
	var n int64
	for _, f := range found.Files {
		n += f.Size
	}
	return n
}

// update is the engine's progress hook (lint.Options.Progress).
func (p *progress) update(files int, bytes int64) {
	if !p.on {
		return
	}
	p.mu.Lock()
	p.files, p.bytes = files, bytes
	p.mu.Unlock()
}

// begin starts the clock; nothing shows before progressDelay has passed.
func (p *progress) begin() {
	if !p.on {
		return
	}
	p.start = time.Now()
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.done)
		delay := time.NewTimer(progressDelay)
		defer delay.Stop()
		select {
		case <-p.stop:
			return
		case <-delay.C:
		}
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			p.draw()
			select {
			case <-p.stop:
				return
			case <-tick.C:
			}
		}
	}()
}

func (p *progress) draw() {
	p.mu.Lock()
	line := formatProgress(p.files, p.totalFiles, p.bytes, p.totalBytes, time.Since(p.start))
	p.mu.Unlock()
	n := len([]rune(line))
	pad := ""
	if n < p.width {
		pad = strings.Repeat(" ", p.width-n)
	}
	fmt.Fprint(p.w, "\r"+line+pad)
	p.width = max(p.width, n)
}

// end stops the display and erases the line, if one was drawn.
func (p *progress) end() {
	if !p.on || p.stop == nil || p.closed {
		return
	}
	p.closed = true
	close(p.stop)
	<-p.done
	if p.width > 0 {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.width)+"\r")
	}
}

// formatProgress is the progress line: files and megabytes (10^6 bytes)
// done out of the totals, and the reading rate so far.
func formatProgress(files, totalFiles int, bytes, totalBytes int64, elapsed time.Duration) string {
	const mb = 1e6
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(bytes) / mb / s
	}
	return fmt.Sprintf("ccvet: %d/%d files, %.1f/%.1f MB, %.1f MB/s",
		files, totalFiles, float64(bytes)/mb, float64(totalBytes)/mb, rate)
}
