package secret

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// tedRandomText fills b with bytes the tables care about (keywords' and
// their neighbours', both cases, bytes above 0x7e), a keyword now and
// then, one often cut by the end.
func tedRandomText(rng *rand.Rand, kws []string, b []byte) {
	const alphabet = "eyskq.~-_=tokenapiKEYSECRET xoxbGHP\xe1\xcb\xff\x7f\x00\n0123456789"
	for i := range b {
		if rng.IntN(5) == 0 {
			b[i] = byte(rng.IntN(256))
		} else {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
	}
	for range rng.IntN(3) {
		k := kws[rng.IntN(len(kws))]
		if rng.IntN(2) == 0 {
			copy(b[max(0, len(b)-rng.IntN(len(k)+1)):], k) // at the end, maybe cut
		} else if len(b) > 0 {
			copy(b[rng.IntN(len(b)):], k)
		}
	}
}

// Every assembly path finds its specification's candidates in random
// texts of every length from 0 to 300 bytes at every alignment, and the
// finder with it what the automaton finds.
func TestTeddyBlocksLengths(t *testing.T) {
	s := Default()
	ref := automaton(s)
	rng := rand.New(rand.NewPCG(25, 3))
	buf := make([]byte, 300+64)
	for _, p := range tedPaths()[1:] {
		t.Run(p.String(), func(t *testing.T) {
			m := withTeddy(t, s, p)
			for n := 0; n <= 300; n++ {
				for a := range 64 {
					text := buf[a : a+n]
					tedRandomText(rng, s.kw, text)
					if msg := tedCheckBlocks(m.ted, p, text); msg != "" {
						t.Fatalf("length %d at %d: %s", n, a, msg)
					}
					sameHits(t, m, ref, text, "length "+strconv.Itoa(n)+" at "+strconv.Itoa(a))
				}
			}
		})
	}
}

// FuzzTeddyBlocks checks each assembly path against its specification,
// and both specifications against what the units allow, on any text.
func FuzzTeddyBlocks(f *testing.F) {
	s := Default()
	for _, text := range []string{"", "x", "sk", "api_key=", "xoxb-1", "Q~", "-----BEGIN", "s.\xff\xff"} {
		f.Add([]byte(text))
	}
	ted := withTeddy(f, s, tedGo).ted
	units := newUnitSpec(s)
	f.Fuzz(func(t *testing.T, text []byte) {
		exact := units.blocks(text)
		for _, spec := range []tedPath{tedGo, tedNibbleSpec} {
			if !tedCovers(tedBlocksOf(ted, spec, text), exact, len(text)) {
				t.Fatalf("specification %d misses candidates", spec)
			}
		}
		for _, p := range tedPaths()[1:] {
			if msg := tedCheckBlocks(ted, p, text); msg != "" {
				t.Fatalf("%s: %s", p, msg)
			}
		}
	})
}
