//go:build !linux

package cli

import "testing"

// otherFileSystem: the test is skipped here (it needs /dev/shm or a tmpfs mount).
func otherFileSystem(t *testing.T, _ string) string {
	t.Skip("NOTICE: no folder on another file system here; the store's tests force the copy path instead")
	return ""
}

// makeFifo: no FIFO made here.
func makeFifo(*testing.T, string) string { return "" }
