//go:build linux && (amd64 || arm64)

package hugeheap

import (
	"runtime/debug"
	"syscall"
	"unsafe"
)

// arena is the unit in which the Go runtime maps heap address space on
// linux/amd64 and arm64 (heapArenaBytes): a mapping made later is a new
// kernel area, which does not inherit the advice.
const arena = 64 << 20

// madvHugepage is MADV_HUGEPAGE (asm-generic/mman-common.h).
const madvHugepage = 14

// Advise makes the heap map at least Size bytes past what it holds now,
// marks the arenas those bytes lie in with MADV_HUGEPAGE, and gives the
// bytes back to the runtime (and, as they were never touched, the
// kernel): the objects allocated next go there, lowest address first,
// and fault in 2 MiB at a time where the system's transparent huge
// pages are "madvise" (where they are "always" the heap has them
// anyway; where "never", the advice does nothing). It reports whether
// the advice was taken. Errors are ignored: the advice is only a hint.
func Advise() bool {
	if disabled() {
		return false
	}
	b := make([]byte, Size)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := p &^ (arena - 1)
	hi := (p + Size + arena - 1) &^ (arena - 1)
	// The arenas of one allocation are reserved whole and in a row, so
	// the range is all heap; ENOMEM (part of it not mapped) is taken as
	// advice given to what is.
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvHugepage)
	debug.FreeOSMemory()
	return errno == 0 || errno == syscall.ENOMEM
}
