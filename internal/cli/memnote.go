package cli

import (
	"fmt"
	"io"

	"github.com/ccvet/ccvet/internal/memlimit"
)

// memNote says on w when the run needed more memory than the README's
// bound (Memory): the soft heap limit had to rise past it to hold the
// largest project folder, transcript or line being read. Nothing is
// skipped; memory grows with them past the bound (there is no spill).
func memNote(w io.Writer, peak int64) {
	if peak <= memlimit.Bound {
		return
	}
	fmt.Fprintf(w, "ccvet: note: the heap limit rose to %d MiB to hold the largest project folder, transcript "+
		"or line being read, past the %d MB bound (docs/performance.md, Memory): every check ran, but memory grows "+
		"with them from there\n", peak>>20, memlimit.Bound/1_000_000)
}
