// Package memlimit keeps the Go heap under a soft limit that yields to the live heap instead of thrashing.
package memlimit

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// Default is the soft limit ccvet runs under: the heap is collected more
// often to stay below it, as long as what is live leaves room. With about
// 20 MiB live (the bench stores, once project folders hold digests and no
// file holds its snapshots), 80 MiB gives a peak RSS near 80 MB for no CPU
// difference measurable on a loaded 2-core machine against 100 MiB; 64 MiB
// cost 3 to 5% more CPU on a 2.4 GB folder (39 MiB live).
const Default = 80 << 20

// Above Default the limit follows the live heap: twice it (the heap goal
// of the usual collector, GOGC=100) while that stays under ceiling, then
// ceiling itself, then the live heap and minRoom while that stays under
// boundHeap, then headroom times it. A live heap between 40 and 56 MiB (a
// folder of about 0.7 to 1.1 million entries) is so collected no more
// often than by the usual collector; the limit stays at ceiling (117 MB)
// until the live heap passes 88 MiB, and passes 128 MB once it passes 90
// MiB (one transcript of about 400,000 entries while its file rules run):
// then the bound is lost anyway, and collecting more often than headroom
// allows costs more than it saves.
const (
	ceiling   = 112 << 20
	minRoom   = 24 << 20
	boundHeap = 114 << 20 // a heap of 114 MiB runs at 125 to 126 MB of RSS
	headroom  = 1.5
)

// Bound is the peak memory ccvet is documented to stay under while the
// live heap stays under 90 MiB (docs/performance.md, Memory): the limit
// passes it beyond.
const Bound = 128_000_000

var (
	base    atomic.Int64 // the soft limit asked for; 0: not started
	peak    atomic.Int64 // the highest limit set since Start
	mu      sync.Mutex
	current int64
	oldGC   int // GOGC before Start, restored by Stop (0: not changed)
)

// Start sets a soft limit of n bytes on the Go heap, unless GOMEMLIMIT is
// set (the user's limit wins), and turns the proportional collector off
// unless GOGC is set: the heap is collected when it reaches the limit,
// which follows the live heap (see Check). It reports whether it started
// the limit; only then should the caller Stop it.
func Start(n int64) bool {
	if os.Getenv("GOMEMLIMIT") != "" || n <= 0 {
		return false
	}
	mu.Lock()
	defer mu.Unlock()
	if base.Load() != 0 {
		return false // already in force (another run in this process); its Stop lifts it
	}
	base.Store(n)
	peak.Store(n)
	current = n
	debug.SetMemoryLimit(n)
	if os.Getenv("GOGC") == "" {
		oldGC = debug.SetGCPercent(-1) // collect when the limit is reached, not before
	}
	arm()
	return true
}

// sentinel is garbage as soon as it is made: its cleanup runs after the
// next collection, checks the limit and makes the next sentinel, so the
// limit follows the live heap after every GC cycle, not only when Check
// is called.
type sentinel struct{ _ *int }

func arm() {
	s := &sentinel{}
	runtime.SetFinalizer(s, func(*sentinel) {
		if base.Load() != 0 {
			Check()
			arm()
		}
	})
}

// Check raises the limit when the live heap comes near it, so that a
// working set larger than the limit is collected at the usual pace rather
// than over and over, and lowers it back when the live heap shrinks (see
// ceiling).
// It is cheap; call it often (after each file, say), from any goroutine.
func Check() {
	b := base.Load()
	if b == 0 {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	want := limitFor(b, sample[0].Value.Uint64())
	mu.Lock()
	defer mu.Unlock()
	if want != current {
		current = want
		debug.SetMemoryLimit(want)
		if want > peak.Load() {
			peak.Store(want)
		}
	}
}

// Peak is the highest limit set since Start (0 when Start did not set
// one): past Bound, the run needed more memory than the README promises.
func Peak() int64 {
	mu.Lock()
	defer mu.Unlock()
	if base.Load() == 0 {
		return 0
	}
	return peak.Load()
}

// limitFor is the limit for a soft limit b and live bytes (see ceiling).
func limitFor(b int64, live uint64) int64 {
	l := float64(live)
	room := l * 2
	if room > ceiling {
		room = math.Max(ceiling, l+minRoom)
		if room > boundHeap {
			room = l * headroom
		}
	}
	return int64(math.Max(float64(b), room))
}

// Stop lifts the limit (for tests, and callers done with the heavy work).
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	if base.Swap(0) != 0 {
		current = 0
		debug.SetMemoryLimit(math.MaxInt64)
		if oldGC != 0 {
			debug.SetGCPercent(oldGC)
			oldGC = 0
		}
	}
}
