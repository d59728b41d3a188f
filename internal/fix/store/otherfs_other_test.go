//go:build !linux

package store

import "testing"

// otherFS: the test is skipped here (it needs /dev/shm or a tmpfs mount).
func otherFS(t *testing.T, _ string) string {
	t.Skip("NOTICE: no folder on another file system here; the copy backup is tested through the internal option")
	return ""
}
