package secret

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// naiveHits lists every (keyword, start) in text by trying each keyword at
// each place, where what may follow the keyword allows it: what the
// automaton must report, in some order.
func naiveHits(s *Scanner, text []byte) [][2]int {
	var out [][2]int
	for i := range text {
		for ki, k := range s.kw {
			if hasKeywordAt(text, i, k) && (s.ac.follow[ki] == nil || s.ac.follow[ki].allows(text, i)) {
				out = append(out, [2]int{ki, i})
			}
		}
	}
	return out
}

func acHits(s *Scanner, text []byte) [][2]int { return hitsOf(s.ac, text) }

// hitsOf lists what m.each reports in text, by start then keyword.
func hitsOf(m *matcher, text []byte) [][2]int {
	var out [][2]int
	m.each(text, func(ki, start int) bool { out = append(out, [2]int{ki, start}); return true })
	slices.SortFunc(out, func(a, b [2]int) int {
		if a[1] != b[1] {
			return a[1] - b[1]
		}
		return a[0] - b[0]
	})
	return out
}

// automaton is s's matcher without the SIMD finder: the reference.
func automaton(s *Scanner) *matcher {
	m := *s.ac
	m.ted = nil
	return &m
}

// tedPaths are the ways this processor can read the blocks: in Go
// (teddyBlocksGo) everywhere, and in assembly with AVX2 and with AVX-512
// VBMI where it has them; the finder tests try each.
func tedPaths() []tedPath {
	ps := []tedPath{tedGo}
	if tedHasAVX2 {
		ps = append(ps, tedAVX2)
	}
	if tedNative == tedVBMI {
		ps = append(ps, tedVBMI)
	}
	return ps
}

// withTeddy returns s's matcher with a finder that reads the blocks by
// path p, so that its tables and checks are tested on every processor.
func withTeddy(t testing.TB, s *Scanner, p tedPath) *matcher {
	t.Helper()
	m := *s.ac
	m.ted = newTeddy(s.kw, s.ac.follow)
	if m.ted == nil {
		t.Fatal("no finder for the keywords")
	}
	m.ted.path = p
	return &m
}

// sameHits fails t when the finder and the automaton disagree on text.
func sameHits(t testing.TB, ted, ref *matcher, text []byte, where string) {
	t.Helper()
	got, want := hitsOf(ted, text), hitsOf(ref, text)
	if !slices.Equal(got, want) {
		// Keyword indexes and places only: the text may hold a secret.
		t.Fatalf("%s (%d bytes): finder %v, automaton %v", where, len(text), got, want)
	}
}

// The four-chain keyword pass reports exactly the occurrences a plain
// search finds, on texts of every length around the quarters' edges,
// keywords planted across them.
func TestMatcherEachExact(t *testing.T) {
	s := Default()
	rng := rand.New(rand.NewPCG(25, 1))
	alphabet := "aeiosktyAKEY_-.=: \n0123456789"
	for n := 0; n < 3000; n++ {
		size := rng.IntN(2400)
		var b strings.Builder
		for b.Len() < size {
			if rng.IntN(6) == 0 {
				k := s.kw[rng.IntN(len(s.kw))]
				if rng.IntN(2) == 0 {
					k = strings.ToUpper(k)
				}
				b.WriteString(k)
				continue
			}
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		text := []byte(b.String())
		want := naiveHits(s, text)
		slices.SortFunc(want, func(a, b [2]int) int {
			if a[1] != b[1] {
				return a[1] - b[1]
			}
			return a[0] - b[0]
		})
		if got := acHits(s, text); !slices.Equal(got, want) {
			t.Fatalf("text of %d bytes: %d hits, want %d", len(text), len(got), len(want))
		}
		if got := hitsOf(automaton(s), text); !slices.Equal(got, want) {
			t.Fatalf("automaton, text of %d bytes: %d hits, want %d", len(text), len(got), len(want))
		}
	}
}

// each stops at the first hit fn refuses, in whichever quarter it is.
func TestMatcherEachStops(t *testing.T) {
	s := Default()
	for _, pad := range []int{0, 1, 63, 64, 1000, 5000} {
		text := []byte(strings.Repeat(" ", pad) + "token token sk_x" + strings.Repeat(" ", pad))
		for _, m := range []*matcher{s.ac, automaton(s)} {
			calls := 0
			m.each(text, func(int, int) bool { calls++; return false })
			if calls != 1 {
				t.Fatalf("pad %d: %d calls", pad, calls)
			}
		}
	}
	if !s.Candidates([]byte(strings.Repeat(" ", 5000)+"token")) || s.Candidates([]byte(strings.Repeat(" ", 9000))) {
		t.Fatal("Candidates")
	}
}

// The SIMD finder reports exactly what the automaton reports in every
// string of the real corpus (raw, as mayFind reads them).
func TestMatcherTeddyCorpus(t *testing.T) {
	s := Default()
	ref := automaton(s)
	texts := realStrings(t, corpusDir)
	if texts == nil {
		t.Skip("no corpus at " + corpusDir)
	}
	for _, p := range tedPaths() {
		t.Run(p.String(), func(t *testing.T) {
			ted := withTeddy(t, s, p)
			hits := 0
			for i, text := range texts {
				sameHits(t, ted, ref, text, "corpus string "+strconv.Itoa(i))
				hits += KeywordHits(s, text)
			}
			t.Logf("%d strings, %d keyword hits", len(texts), hits)
		})
	}
}

// adversarialTexts are texts where the finder could go wrong: every
// keyword at every place of texts around the 64-byte blocks' edges, in
// three cases, cut by the text's end, next to bytes of 0x80 and above
// (0xe1 and 0xcb read as 'a' and 'K' by their low 7 bits), and random
// texts of 0 to 100 bytes.
func adversarialTexts(kws []string) [][]byte {
	var out [][]byte
	fills := []byte{' ', 'a', 0xe1, 0x00, '_', 0xff}
	cases := []func(string) string{func(k string) string { return k }, strings.ToUpper, func(k string) string {
		b := []byte(k)
		for i := range b {
			if i%2 == 0 {
				b[i] = strings.ToUpper(string(b[i]))[0]
			}
		}
		return string(b)
	}}
	for ki, k := range kws {
		kc := cases[ki%3](k)
		fill := fills[ki%len(fills)]
		for _, n := range []int{len(k), len(k) + 1, 63, 64, 65, 66, 67, 127, 128, 130, 1030} {
			if n < len(k) {
				continue
			}
			for at := 0; at+len(k) <= n; at++ {
				if n > 200 && at%7 != 0 && at < n-70 {
					continue
				}
				b := bytes.Repeat([]byte{fill}, n)
				copy(b[at:], kc)
				out = append(out, b)
			}
		}
		// Cut by the end: every proper prefix at the end of the text.
		for cut := 1; cut < len(k); cut++ {
			out = append(out, append(bytes.Repeat([]byte{'x'}, 64-cut+ki%3), kc[:cut]...))
		}
		// With the high bit set on each byte in turn (no keyword there).
		for j := 0; j < len(k); j++ {
			b := []byte(" " + k + " ")
			b[1+j] |= 0x80
			out = append(out, b)
		}
	}
	rng := rand.New(rand.NewPCG(25, 2))
	alphabet := []byte("eyskq.~-_=tokenapiKEYSECRET \xe1\xcb\xf3\x80\n0123456789")
	for range 3000 {
		b := make([]byte, rng.IntN(101))
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = byte(rng.IntN(256))
			} else {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		if len(b) > 0 && rng.IntN(2) == 0 {
			k := kws[rng.IntN(len(kws))]
			at := rng.IntN(len(b))
			b = append(b[:at], append([]byte(k), b[at:]...)...)
		}
		out = append(out, b)
	}
	// Every keyword, one after the other, at each shift, with overlaps.
	all := strings.Join(kws, "")
	for shift := range 70 {
		out = append(out, []byte(strings.Repeat(" ", shift)+all))
		out = append(out, []byte(strings.Repeat("s", shift)+strings.ToUpper(all)))
	}
	return out
}

func TestMatcherTeddyAdversarial(t *testing.T) {
	s := Default()
	ref := automaton(s)
	texts := adversarialTexts(s.kw)
	for _, p := range tedPaths() {
		t.Run(p.String(), func(t *testing.T) {
			ted := withTeddy(t, s, p)
			for i, text := range texts {
				sameHits(t, ted, ref, text, "text "+strconv.Itoa(i))
			}
			// And against a plain search, in case both are wrong alike.
			for i, text := range texts[:2000] {
				want := naiveHits(s, text)
				slices.SortFunc(want, func(a, b [2]int) int {
					if a[1] != b[1] {
						return a[1] - b[1]
					}
					return a[0] - b[0]
				})
				if got := hitsOf(ted, text); !slices.Equal(got, want) {
					t.Fatalf("text %d: finder %v, plain search %v", i, got, want)
				}
			}
			t.Logf("%d texts", len(texts))
		})
	}
}

// FuzzMatcherTeddy checks the SIMD finder, read each way the processor
// can, against the automaton on any text.
func FuzzMatcherTeddy(f *testing.F) {
	s := Default()
	for i, text := range adversarialTexts(s.kw) {
		if i%13 == 0 {
			f.Add(text)
		}
	}
	var teds []*matcher
	for _, p := range tedPaths() {
		teds = append(teds, withTeddy(f, s, p))
	}
	ref := automaton(s)
	f.Fuzz(func(t *testing.T, text []byte) {
		for _, ted := range teds {
			sameHits(t, ted, ref, text, "fuzz "+ted.ted.path.String())
		}
	})
}

// Near the end of a memory page the finder reads the last bytes of a
// text with masked loads (AVX2: from a copy), not whole: both ways find
// the same, for texts that start or end at every place of a page's last
// 100 bytes.
func TestMatcherTeddyPageEnd(t *testing.T) {
	s := Default()
	ref := automaton(s)
	for _, p := range tedPaths() {
		t.Run(p.String(), func(t *testing.T) { testPageEnd(t, withTeddy(t, s, p), ref) })
	}
}

func testPageEnd(t *testing.T, ted, ref *matcher) {
	buf := make([]byte, 3*4096)
	// The offset in buf of the second page's start.
	page := 4096 - int(uintptr(unsafe.Pointer(&buf[0]))%4096)
	fill := []byte("xTOKEN sk_live api_key=ey s. q~ EY")
	for i := range buf {
		buf[i] = fill[i%len(fill)]
	}
	for n := 0; n <= 140; n++ {
		for end := page - 100; end <= page+4; end++ {
			sameHits(t, ted, ref, buf[end-n:end], "page end "+strconv.Itoa(end-page)+" length "+strconv.Itoa(n))
			sameHits(t, ted, ref, buf[end:end+n], "page start "+strconv.Itoa(end-page)+" length "+strconv.Itoa(n))
		}
	}
}

// The assembly finds the candidates its Go specification finds, but
// among the last three positions of a text (read whole past its end);
// the AVX2 path's specification (teddyNibblesGo) finds every
// candidate the class tables of its buckets (teddyBlocksGo) find.
func TestTeddyBlocksSpec(t *testing.T) {
	s := Default()
	ted := withTeddy(t, s, tedGo).ted
	texts := adversarialTexts(s.kw)
	corpus := realStrings(t, corpusDir)
	texts = append(texts, corpus[:min(20000, len(corpus))]...)
	units := newUnitSpec(s)
	for i, text := range texts {
		exact := units.blocks(text)
		if !tedCovers(tedBlocksOf(ted, tedGo, text), exact, len(text)) {
			t.Fatalf("text %d: the class tables miss candidates", i)
		}
		if !tedCovers(tedBlocksOf(ted, tedNibbleSpec, text), exact, len(text)) {
			t.Fatalf("text %d: the nibble tables miss candidates", i)
		}
	}
	for _, p := range tedPaths()[1:] {
		t.Run(p.String(), func(t *testing.T) {
			for i, text := range texts {
				if msg := tedCheckBlocks(ted, p, text); msg != "" {
					t.Fatalf("text %d: %s", i, msg)
				}
			}
		})
	}
}

// unitSpec is what the finder's tables must pass, whatever their
// buckets: at[j][c] holds the units (one bit each) that allow byte c at
// place j (as unitAllows says, both cases of a letter).
type unitSpec struct{ at [4][256][4]uint64 }

func newUnitSpec(s *Scanner) *unitSpec {
	unit, off := tedUnits(s.kw)
	var us unitSpec
	ui := 0
	for u := range tedUnitPrefixes(s.kw, unit, off) {
		for j := range 4 {
			set := unitAllows(s.kw, off, s.ac.follow, u, j)
			for c := range 256 {
				if set.has(lower[c]) {
					us.at[j][c][ui/64] |= 1 << (ui % 64)
				}
			}
		}
		ui++
	}
	if ui > 256 {
		panic("more than 256 units")
	}
	return &us
}

// blocks is the places of text (one bit each, as teddyBlocks sets them)
// where some unit allows the four bytes from there, those past the end
// read as zeros.
func (us *unitSpec) blocks(text []byte) []uint64 {
	out := make([]uint64, (len(text)+63)/64)
	for p := range text {
		m := [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		for j := range 4 {
			var c byte
			if p+j < len(text) {
				c = text[p+j]
			}
			for w := range m {
				m[w] &= us.at[j][c][w]
			}
		}
		if m != [4]uint64{} {
			out[p/64] |= 1 << (p % 64)
		}
	}
	return out
}

// tedNibbleSpec stands for teddyNibblesGo, in tedBlocksOf.
const tedNibbleSpec tedPath = 0xff

// tedBlocksOf is the candidates of text by path p of t's tables, read in
// chunks as teddy.each reads them; p tedNibbleSpec is the AVX2 path's
// specification, teddyNibblesGo.
func tedBlocksOf(t *teddy, p tedPath, text []byte) []uint64 {
	out := make([]uint64, (len(text)+63)/64)
	for off := 0; off < len(text); off += 64 * tedChunk {
		k := min((len(text)-off+63)/64, tedChunk)
		switch p {
		case tedVBMI:
			teddyBlocks(&t.tables, text[off:], out[off/64:off/64+k])
		case tedAVX2:
			teddyBlocksAVX2(&t.nibbles, text[off:], out[off/64:off/64+k])
		case tedGo:
			teddyBlocksGo(&t.tables, text[off:], out[off/64:off/64+k])
		default:
			teddyNibblesGo(&t.nibbles, text[off:], out[off/64:off/64+k])
		}
	}
	return out
}

// tedCovers says whether got holds every candidate of want, and others
// only at text positions (none at n or past), of n.
func tedCovers(got, want []uint64, n int) bool {
	for k := range got {
		if want[k]&^got[k] != 0 {
			return false
		}
		if m := got[k] >> min(64, max(0, n-64*k)); m != 0 {
			return false
		}
	}
	return true
}

// tedCheckBlocks compares the candidates of text by the assembly path p
// with its specification ("" when they agree): the same, but among the
// last three positions, where the assembly may read the bytes past the
// end as they are in memory, not as zeros (a keyword there leaves its
// unit's places past the text's end to any byte, so it is a candidate
// either way), and none past the end.
func tedCheckBlocks(t *teddy, p tedPath, text []byte) string {
	spec := tedGo
	if p == tedAVX2 {
		spec = tedNibbleSpec
	}
	got, want := tedBlocksOf(t, p, text), tedBlocksOf(t, spec, text)
	for k := range got {
		diff := got[k] ^ want[k]
		for b := 0; b < 64; b++ {
			if diff>>b&1 != 0 && 64*k+b < len(text)-3 || got[k]>>b&1 != 0 && 64*k+b >= len(text) {
				return fmt.Sprintf("%d bytes: at %d, candidates %x, specification %x", len(text), 64*k+b, got[k], want[k])
			}
		}
	}
	return ""
}

// Every keyword tedAnchors moves is one of the rules', moved inside it,
// and every keyword that shares its first four bytes is moved too (else
// the prefix stays a unit and the move saves nothing); the finder looks
// for it where the map says, and finds it at a text's start and end.
func TestTeddyAnchorsValid(t *testing.T) {
	s := Default()
	unit, off := tedUnits(s.kw)
	index := map[string]int{}
	for ki, k := range s.kw {
		index[k] = ki
	}
	ref := automaton(s)
	var teds []*matcher
	for _, p := range tedPaths() {
		teds = append(teds, withTeddy(t, s, p))
	}
	for k, o := range tedAnchors {
		ki, ok := index[k]
		if !ok {
			t.Errorf("tedAnchors moves %q, no rule's keyword", k)
			continue
		}
		if o < 1 || o+4 > len(k) || off[ki] != o || unit[ki] != k[o:o+4] {
			t.Errorf("%q: offset %d, found at %d by %q", k, o, off[ki], unit[ki])
		}
		for _, other := range s.kw {
			if len(other) >= 4 && other[:4] == k[:4] && tedAnchors[other] == 0 {
				t.Errorf("%q moves off %q, %q does not", k, k[:4], other)
			}
		}
		for _, text := range []string{k, k + " x", "x " + k, strings.ToUpper(k), k[1:], k[:len(k)-1]} {
			for _, ted := range teds {
				sameHits(t, ted, ref, []byte(text), k+" "+ted.ted.path.String())
			}
		}
	}
}
