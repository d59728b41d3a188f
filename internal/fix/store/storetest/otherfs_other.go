//go:build !linux

package storetest

import "testing"

// OtherFileSystem: the test is skipped here (it needs /dev/shm or a tmpfs
// mount).
func OtherFileSystem(t testing.TB, _ string) string {
	t.Helper()
	t.Skip(SkipNotice)
	return ""
}
