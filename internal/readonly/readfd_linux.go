package readonly

import (
	"syscall"
	"unsafe"
)

// readFD reads from fd without telling the Go scheduler (a raw system
// call). A read of a file in the page cache takes tens of microseconds
// for the 1 MiB ccvet asks at once, longer than the scheduler's monitor
// waits (20 µs) before it hands a goroutine's processor in a system call
// to another thread: with every worker reading, it did so hundreds of
// times a run, and the threads woken for nothing cost more than the reads
// (on the 200 MB Windows no-repeat store: 1,400 to 2,000 context switches
// a run, 250 to 500 without; task-clock median 697.7 -> 656.0 ms). The
// cost: while a read waits for a disk or a network file system, its
// goroutine keeps its processor, which other goroutines (the other
// workers have their own) cannot use; an interrupted read gives way
// (Handle.Read).
func readFD(fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}
