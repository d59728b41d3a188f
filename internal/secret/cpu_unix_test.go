//go:build unix

package secret_test

import "syscall"

// cpuTime is the user and system CPU time, in nanoseconds, the process
// has used; -1 when unknown.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
