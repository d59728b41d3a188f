package hugeheap

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
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
		{"disablethp=1,disablethp=0", false},
		{"disablethp=0,disablethp=1", true},
	} {
		t.Setenv("GODEBUG", c.v)
		if got := disabled(); got != c.want {
			t.Errorf("GODEBUG=%q: disabled() = %v, want %v", c.v, got, c.want)
		}
		if c.want && Advise() {
			t.Errorf("GODEBUG=%q: Advise() took advice", c.v)
		}
		Settle() // nothing to take back
	}
}

// TestAdvise checks, where Advise works (64-bit Linux, transparent huge
// pages on "madvise" or "always"), that the area of a heap object made
// after it carries the advice (the "hg" flag of /proc/self/smaps), and
// that the bytes it borrowed were given back.
func TestAdvise(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		if Advise() {
			t.Fatal("Advise() took advice off 64-bit Linux")
		}
		t.Skip("Advise does nothing here")
	}
	if disabled() {
		t.Skip("GODEBUG has disablethp=1")
	}
	if bounded() {
		if Advise() {
			t.Fatal("Advise() took advice under a limit on the address space")
		}
		t.Skip("the address space is limited here (see TestAdviseBounded)")
	}
	mode, err := os.ReadFile(thpEnabled)
	if err == nil && !adviceMatters(string(mode)) {
		if Advise() {
			t.Fatalf("Advise() took advice where the mode is %q", strings.TrimSpace(string(mode)))
		}
		t.Skip("the advice changes nothing here")
	}
	if !Advise() {
		t.Fatal("Advise() = false on Linux with transparent huge pages on madvise")
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > Size/2 {
		t.Errorf("%d heap bytes in use after Advise: the borrowed bytes were not given back", ms.HeapInuse)
	}
	obj := make([]byte, 1<<20)
	addr := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(obj))))
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	flags, ok := areaFlags(string(smaps), addr)
	if !ok {
		t.Fatalf("no area of /proc/self/smaps holds %#x", addr)
	}
	if !slices.Contains(strings.Fields(flags), "hg") {
		t.Errorf("the area of a new heap object has VmFlags %q, without hg (MADV_HUGEPAGE)", flags)
	}
	// Collections leave the advice in place until Settle.
	runtime.GC()
	runtime.GC()
	smaps, err = os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	if flags, _ := areaFlags(string(smaps), addr); !slices.Contains(strings.Fields(flags), "hg") {
		t.Errorf("before Settle, collections took the advice back: VmFlags %q", flags)
	}
	// After Settle, the next collection takes it back (nh:
	// MADV_NOHUGEPAGE), by a cleanup that runs on its own goroutine.
	Settle()
	for try := 0; ; try++ {
		runtime.GC()
		smaps, err := os.ReadFile("/proc/self/smaps")
		if err != nil {
			t.Fatal(err)
		}
		flags, _ := areaFlags(string(smaps), addr)
		if f := strings.Fields(flags); slices.Contains(f, "nh") && !slices.Contains(f, "hg") {
			break
		}
		if try == 100 {
			t.Fatalf("after collections the area still has VmFlags %q: the advice stays", flags)
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(obj)
}

func TestAdviceMatters(t *testing.T) {
	for _, c := range []struct {
		mode string
		want bool
	}{
		{"always [madvise] never\n", true},
		{"[always] madvise never\n", false},
		{"always madvise [never]\n", false},
		{"[always] never\n", false}, // older kernels have no madvise mode
		{"", true},
		{"something else\n", true},
	} {
		if got := adviceMatters(c.mode); got != c.want {
			t.Errorf("adviceMatters(%q) = %v, want %v", c.mode, got, c.want)
		}
	}
}

// areaFlags returns the VmFlags of the area of smaps that holds addr.
func areaFlags(smaps string, addr uint64) (string, bool) {
	in := false
	for line := range strings.Lines(smaps) {
		line = strings.TrimSpace(line)
		if lo, hi, ok := areaRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if f, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return f, true
		}
	}
	return "", false
}

// areaRange parses the "lo-hi perms ..." line that starts an area.
func areaRange(line string) (lo, hi uint64, ok bool) {
	r, _, _ := strings.Cut(line, " ")
	a, b, found := strings.Cut(r, "-")
	if !found {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseUint(a, 16, 64)
	hi, err2 := strconv.ParseUint(b, 16, 64)
	return lo, hi, err1 == nil && err2 == nil
}

// Under a limit on its address space (ulimit -v), a process gets no
// advice: the 64 MiB Advise borrows could pass the limit, and a failed
// allocation kills a Go program. The test runs itself again under one.
func TestAdviseBounded(t *testing.T) {
	if os.Getenv("CCVET_HUGEHEAP_CHILD") != "" {
		fmt.Printf("bounded=%v advised=%v\n", bounded(), Advise())
		return
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("Advise does nothing here")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, "-c", `ulimit -v 8000000 && exec "$0" -test.run='^TestAdviseBounded$' -test.count=1`, os.Args[0])
	cmd.Env = append(os.Environ(), "CCVET_HUGEHEAP_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child under ulimit -v: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "bounded=true advised=false") {
		t.Fatalf("under ulimit -v the child said:\n%s", out)
	}
}
