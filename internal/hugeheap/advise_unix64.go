//go:build linux && (amd64 || arm64)

package hugeheap

import (
	"os"
	"runtime"
	"sync/atomic"
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
// bytes back to the runtime (a collection; the kernel never had them, as
// they were never touched): the objects allocated next go there, lowest
// address first, and fault in 2 MiB at a time where the system's
// transparent huge pages are "madvise" (where they are "always" the heap
// has them anyway; where "never", the advice does nothing). It reports
// whether the advice was taken. Errors are ignored: the advice is only a
// hint. ccvet calls it first thing, when the heap holds little more than
// what the packages' initialisation made and the collection is short
// (about 3 ms on the VM of docs/performance.md, most of it starting the
// collector's workers); Settle says when the advice is taken back.
//
// Where the system's mode is "always" or "never" (read from
// /sys/kernel/mm/transparent_hugepage/enabled), the advice would change
// nothing and Advise does nothing: no collection. Where the file cannot
// be read, it advises. Under a limit on the address space or the data
// segment it does nothing either (bounded).
func Advise() bool {
	if disabled() {
		return false
	}
	if mode, err := os.ReadFile(thpEnabled); err == nil && !adviceMatters(string(mode)) {
		return false
	}
	if bounded() {
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
	// Not debug.FreeOSMemory: the kernel has no page of b to take, and
	// bytes the runtime counts as given back cost more page faults when
	// used again (on the 200 MB Windows no-repeat store, 3,950 a run
	// against 3,350).
	runtime.GC()
	if errno != 0 && errno != syscall.ENOMEM {
		return false
	}
	advised.Store(&[2]uintptr{lo, hi})
	return true
}

// bounded reports whether the process's address space or data segment
// has a limit (ulimit -v, ulimit -d, or the bound could not be read): the
// 64 MiB Advise borrows could pass it, and a Go program cannot survive a
// failed allocation ("fatal error: out of memory", before main, under a
// limit of 0.8 to 1.5 GB of address space that a run fits in without the
// advice). A hint is not worth that risk.
func bounded() bool {
	for _, r := range [...]int{syscall.RLIMIT_AS, syscall.RLIMIT_DATA} {
		var l syscall.Rlimit
		if err := syscall.Getrlimit(r, &l); err != nil || l.Cur != ^uint64(0) {
			return true
		}
	}
	return false
}

// advised is the range Advise marked, until Settle takes it.
var advised atomic.Pointer[[2]uintptr]

// Settle has the advice Advise gave taken back after the next collection:
// by then the heap should have grown into the advised bytes (under
// ccvet's soft limit, with the collector off, the first collection comes
// when the heap reaches the limit; call Settle once that limit is set, as
// a collection before would take the advice back before the heap used
// it). Left in place, khugepaged would in time fill whole 2 MiB areas
// around the pages the runtime gives back, and a long run's RSS would
// grow to the advised arenas, up to 128 MiB. The huge pages already there
// stay. Settle does nothing when Advise gave no advice, or after the
// first call.
func Settle() {
	r := advised.Swap(nil)
	if r == nil {
		return
	}
	// A sentinel, garbage as soon as made: its cleanup runs after the
	// next collection.
	s := new(sentinel)
	runtime.AddCleanup(s, func(r [2]uintptr) {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, r[0], r[1]-r[0], madvNoHugepage)
	}, *r)
}

type sentinel struct{ _ *int }
