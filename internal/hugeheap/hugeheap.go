// Package hugeheap asks Linux to back the first part of the Go heap with transparent huge pages.
package hugeheap

import (
	"os"
	"strings"
)

// MinInput is the input size from which Advise is worth its cost (a
// collection and about 3 ms): below it a run touches too little memory
// for the page faults it saves to count.
const MinInput = 64 << 20

// Size is how much of the heap Advise covers, from where new objects go
// first. A lint touches a fresh 4 KiB page for about every 4 KiB it
// allocates (the collector runs when the heap reaches its soft limit,
// see memlimit), and a page fault costs microseconds on a virtual
// machine: on the 200 MB bench stores, about 19,000 faults and 5 to 10%
// of the wall time. Backed by 2 MiB pages, the same memory takes about
// 2,500 faults. Covering more than this buys little more time and adds
// to the peak RSS (a huge page is resident whole).
const Size = 48 << 20

// disabled reports whether GODEBUG holds disablethp=1, the Go runtime's
// own switch for keeping the heap off huge pages: ccvet honours it too.
func disabled() bool {
	for s := range strings.SplitSeq(os.Getenv("GODEBUG"), ",") {
		if strings.TrimSpace(s) == "disablethp=1" {
			return true
		}
	}
	return false
}
