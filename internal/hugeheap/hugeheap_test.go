package hugeheap

import (
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestDisabledByGODEBUG(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{
		{"", false},
		{"disablethp=1", true},
		{"gctrace=0, disablethp=1", true},
		{"disablethp=0", false},
		{"xdisablethp=1", false},
	} {
		t.Setenv("GODEBUG", c.v)
		if got := disabled(); got != c.want {
			t.Errorf("GODEBUG=%q: disabled() = %v, want %v", c.v, got, c.want)
		}
		if c.want && Advise() {
			t.Errorf("GODEBUG=%q: Advise() took advice", c.v)
		}
	}
}

// TestAdvise checks, where the kernel has transparent huge pages on
// "madvise" or "always", that Advise leaves some heap area eligible for
// them and the bytes it borrowed given back.
func TestAdvise(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("no transparent huge pages here")
	}
	if disabled() {
		t.Skip("GODEBUG has disablethp=1")
	}
	if !Advise() {
		t.Fatal("Advise() = false on Linux with transparent huge pages")
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if kept := ms.HeapIdle - ms.HeapReleased; kept > Size/2 {
		t.Errorf("%d idle bytes still held after Advise", kept)
	}
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	if !regexp.MustCompile(`(?m)^THPeligible:\s+1$`).Match(smaps) {
		t.Error("no area of the process is eligible for huge pages after Advise")
	}
}
