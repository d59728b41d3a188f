// Package hugeheap asks Linux to back the first part of the Go heap with transparent huge pages.
package hugeheap

import (
	"os"
	"strings"
)

// Size is how many bytes Advise has the heap map past what it holds; the
// advice covers the arenas they lie in (one or two of 64 MiB, with the
// objects already there), from where new objects go first. A lint
// touches a fresh 4 KiB page for about every 4 KiB it allocates (the
// collector runs when the heap reaches its soft limit, see memlimit),
// and a page fault costs microseconds on a virtual machine (12 µs on the
// 2-core VM of docs/performance.md): on the 200 MB bench stores, about
// 19,000 faults and 5 to 10% of the wall time. Backed by 2 MiB pages,
// the same memory takes about 2,800 faults. 48 MiB left the last 12 MiB
// of a heap growing to its 80 MiB limit on small pages (2,700 faults
// more); covering more than the limit adds to the peak RSS (a huge page
// is resident whole) and saves no fault.
const Size = 64 << 20

// disabled reports whether GODEBUG sets disablethp=1 (the last setting
// of it wins, as in the runtime), the Go runtime's own switch for keeping
// the heap off huge pages: ccvet honours it too.
func disabled() bool {
	off := false
	for s := range strings.SplitSeq(os.Getenv("GODEBUG"), ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(s), "disablethp="); ok {
			off = v == "1"
		}
	}
	return off
}

// thpEnabled is where Linux says when it backs memory with transparent
// huge pages: "always", "madvise" (where advised) or "never", the mode in
// force in brackets.
const thpEnabled = "/sys/kernel/mm/transparent_hugepage/enabled"

// adviceMatters reports whether the mode thpEnabled holds is "madvise",
// the one where advice decides; a text in no form known counts as
// mattering.
func adviceMatters(mode string) bool {
	for _, m := range []string{"always", "never"} {
		if strings.Contains(mode, "["+m+"]") {
			return false
		}
	}
	return true
}
