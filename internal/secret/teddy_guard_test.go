//go:build linux || darwin

package secret

import (
	"math/rand/v2"
	"strconv"
	"syscall"
	"testing"
)

// No path reads past a text's end into a page it may not touch: texts
// of 0 to 300 bytes ending at or up to 70 bytes before the start of a
// page that faults when read.
func TestTeddyBlocksGuardPage(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer func() {
		if err := syscall.Munmap(mem); err != nil {
			t.Error("munmap:", err)
		}
	}()
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	s := Default()
	ref := automaton(s)
	rng := rand.New(rand.NewPCG(25, 4))
	for _, p := range tedPaths() {
		t.Run(p.String(), func(t *testing.T) {
			m := withTeddy(t, s, p)
			for n := 0; n <= 300; n++ {
				for before := 0; before <= 70; before++ {
					end := page - before
					text := mem[end-n : end : end]
					tedRandomText(rng, s.kw, text)
					if p != tedGo {
						if msg := tedCheckBlocks(m.ted, p, text); msg != "" {
							t.Fatalf("length %d, %d bytes before the page: %s", n, before, msg)
						}
					}
					sameHits(t, m, ref, text, "length "+strconv.Itoa(n)+", "+strconv.Itoa(before)+" bytes before the page")
				}
			}
		})
	}
}
