//go:build !unix

package inventory

import "os"

// pidLive reports whether a process with this id runs.
func pidLive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
