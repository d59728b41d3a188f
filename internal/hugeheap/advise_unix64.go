//go:build linux && (amd64 || arm64)

package hugeheap

import (
	"runtime"
	"runtime/debug"
	"syscall"
	"unsafe"
)

// arena is the unit in which the Go runtime maps heap address space on
// linux/amd64 and arm64 (heapArenaBytes): a mapping made later is a new
// kernel area, which does not inherit the advice.
const arena = 64 << 20

// MADV_HUGEPAGE and MADV_NOHUGEPAGE (asm-generic/mman-common.h).
const madvHugepage, madvNoHugepage = 14, 15

// Advise makes the heap map at least Size bytes past what it holds now,
// marks the arenas those bytes lie in with MADV_HUGEPAGE, and gives the
// bytes back to the runtime (and, as they were never touched, the
// kernel): the objects allocated next go there, lowest address first,
// and fault in 2 MiB at a time where the system's transparent huge
// pages are "madvise" (where they are "always" the heap has them
// anyway; where "never", the advice does nothing). It reports whether
// the advice was taken. Errors are ignored: the advice is only a hint.
//
// The advice is taken back after the next collection (the heap has grown
// to its soft limit once and reuses its pages from then on): left in
// place, khugepaged would in time fill whole 2 MiB areas around the pages
// the runtime gives back (it collapses an area holding a single page),
// and a long run's RSS would grow to the advised arenas, up to 128 MiB.
// The huge pages already there stay.
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
	if errno != 0 && errno != syscall.ENOMEM {
		return false
	}
	// A sentinel, garbage as soon as made: its cleanup runs after the
	// next collection.
	s := new(sentinel)
	runtime.AddCleanup(s, func(r [2]uintptr) {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, r[0], r[1]-r[0], madvNoHugepage)
	}, [2]uintptr{lo, hi})
	return true
}

type sentinel struct{ _ *int }
