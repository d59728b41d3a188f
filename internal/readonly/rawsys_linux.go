//go:build linux && (amd64 || arm64)

package readonly

import (
	"syscall"
	"unsafe"
)

// The system calls of a Handle are raw: made without telling the Go
// scheduler. A call the scheduler is told of leaves its processor free
// to be handed to another thread once the scheduler's monitor sees it
// last past a tick (20 µs); on a virtual machine an open or an fstat can
// take that long, and a read of the 1 MiB ccvet asks at once does. With
// every worker reading, the monitor handed processors to new threads
// hundreds of times a run and woke every 20 µs to look (each hand-off
// put it back to its shortest sleep); the threads woken for nothing cost
// more than the calls. Measured on the 200 MB Windows no-repeat store:
// raw reads, 1,400 to 2,000 context switches a run down to 250 to 500,
// task-clock median 697.7 -> 656.0 ms; raw opens, fstats and closes too,
// see docs/performance.md. The cost: while a call waits for a disk or a
// network file system, its goroutine keeps its processor, which the other
// goroutines (the other workers have their own) cannot use; an
// interrupted call gives way (Handle.Read). No call here can wait for
// another program: files are opened O_NONBLOCK, so a FIFO does not block
// the open.

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

func openFD(path string, flags int) (int, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	fd, _, e := syscall.RawSyscall6(syscall.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(p)), uintptr(flags|syscall.O_LARGEFILE), 0, 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

// atFDCWD is AT_FDCWD, as a value that converts to uintptr.
var atFDCWD = int64(-100)

func fstatFD(fd int, st *syscall.Stat_t) error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_FSTAT, uintptr(fd), uintptr(unsafe.Pointer(st)), 0); e != 0 {
		return e
	}
	return nil
}

func closeFD(fd int) error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(fd), 0, 0); e != 0 {
		return e
	}
	return nil
}
