package cli

import (
	"syscall"
	"testing"
)

// makeFifo makes a FIFO in dir ("" when the system cannot).
func makeFifo(t *testing.T, dir string) string {
	t.Helper()
	p := dir + "/fifo.jsonl"
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		return ""
	}
	return p
}
