package memlimit

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

func limit() int64 { return debug.SetMemoryLimit(-1) }

func TestSoftLimit(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	if !Start(16 << 20) {
		t.Fatal("not started")
	}
	defer Stop()
	if got := limit(); got != 16<<20 {
		t.Fatalf("limit %d, want %d", got, 16<<20)
	}
	// A live heap past the limit raises it above the live heap.
	func() {
		big := make([][]byte, 48)
		for i := range big {
			big[i] = make([]byte, 1<<20)
		}
		runtime.GC()
		Check()
		if got := limit(); got < 48<<20*3/2 {
			t.Errorf("limit %d with 48 MB live: not raised", got)
		}
		if p := Peak(); p != limit() {
			t.Errorf("Peak %d, want the raised limit %d", p, limit())
		}
		runtime.KeepAlive(big)
	}()
	runtime.GC()
	Check()
	if got := limit(); got != 16<<20 {
		t.Errorf("limit %d after the live heap shrank, want %d", got, 16<<20)
	}
	if p := Peak(); p < 48<<20*3/2 {
		t.Errorf("Peak %d after the live heap shrank: forgot the raise", p)
	}
	Stop()
	if p := Peak(); p != 0 {
		t.Errorf("Peak %d after Stop, want 0", p)
	}
	if got := limit(); got != math.MaxInt64 {
		t.Errorf("limit %d after Stop", got)
	}
}

func TestUserLimitWins(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	before := limit()
	if Start(16 << 20) {
		t.Fatal("started though GOMEMLIMIT is set")
	}
	Check()
	if got := limit(); got != before {
		t.Errorf("limit changed to %d", got)
	}
}

func TestStartTwice(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(-1)
	debug.SetGCPercent(before)
	if !Start(16 << 20) {
		t.Fatal("not started")
	}
	if Start(32 << 20) {
		t.Error("started twice")
	}
	Stop()
	if got := debug.SetGCPercent(before); got != before {
		t.Errorf("GOGC %d after Stop, want %d", got, before)
	}
	if got := limit(); got != math.MaxInt64 {
		t.Errorf("limit %d after Stop", got)
	}
}

func TestLimitFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ live, want int64 }{
		{10 * mib, 80 * mib},   // small live heap: the soft limit
		{45 * mib, 90 * mib},   // twice the live heap, as GOGC=100
		{60 * mib, 112 * mib},  // held at the ceiling
		{74 * mib, 112 * mib},  // still the ceiling
		{88 * mib, 112 * mib},  // the ceiling until minRoom passes it
		{89 * mib, 113 * mib},  // minRoom past the ceiling
		{90 * mib, 114 * mib},  // up to boundHeap
		{92 * mib, 138 * mib},  // headroom past boundHeap
		{100 * mib, 150 * mib}, // headroom
	} {
		if got := limitFor(80*mib, uint64(c.live)); got != c.want {
			t.Errorf("live %d MiB: limit %d MiB, want %d MiB", c.live/mib, got/mib, c.want/mib)
		}
	}
}
