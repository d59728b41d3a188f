// Command ccvet lints and validates the data Claude Code keeps on disk.
package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/ccvet/ccvet/internal/atomicfile"
	"github.com/ccvet/ccvet/internal/cli"
	// Imported first, for its initialisation: the huge-page advice
	// (internal/hugeheap), given while the heap is small enough for
	// its collection to cost a fraction of a millisecond.
	_ "github.com/ccvet/ccvet/internal/hugeheap/early"
)

func main() {
	// Interrupted, ccvet leaves no half-written report or baseline behind:
	// their temporary files go, and the files they were to replace keep
	// their old content.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		atomicfile.RemovePending()
		code := 128 + 2
		if s == syscall.SIGTERM {
			code = 128 + 15
		}
		os.Exit(code)
	}()
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
