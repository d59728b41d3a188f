package secret

import (
	"fmt"
	"math/bits"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestTeddyBucketSearch re-derives tedBuckets (run it when gitleaks'
// keywords change; a prefix not listed still works, from bucket 31, only
// with more candidates): a local search, from the current assignment,
// that moves one prefix at a time to the bucket that lets the fewest
// positions of real strings through the tables. It prints the map to
// paste into teddy.go. Slow (minutes); run only on demand:
//
//	CCVET_TEDDY_SEARCH=1 CCVET_BENCH_STORE=/path/to/store go test ./internal/secret -run TestTeddyBucketSearch -v -timeout 1h
func TestTeddyBucketSearch(t *testing.T) {
	texts := searchTexts(t)
	// The 4-byte windows of the texts, as the tables read them: ASCII
	// lowercased, other bytes 0x7f, past the end 0 (which no keyword
	// holds, as a masked load reads it).
	val := func(b byte) uint32 {
		if b >= 0x80 {
			return 0x7f
		}
		return uint32(lower[b])
	}
	counts := map[uint32]int{}
	total := 0
	for _, s := range texts {
		total += len(s)
		for i := range s {
			var w uint32
			for j := range 4 {
				var v uint32
				if i+j < len(s) {
					v = val(s[i+j])
				}
				w |= v << (8 * j)
			}
			counts[w]++
		}
	}
	type window struct {
		b [4]uint8
		n int
	}
	windows := make([]window, 0, len(counts))
	for w, n := range counts {
		windows = append(windows, window{[4]uint8{uint8(w), uint8(w >> 8), uint8(w >> 16), uint8(w >> 24)}, n})
	}
	// The prefixes, as newTeddy makes them.
	kws := Default().kw
	kunit, off := tedUnits(kws)
	prefixOf := tedUnitPrefixes(kws, kunit, off)
	var units []string
	for u := range prefixOf {
		units = append(units, u)
	}
	sort.Strings(units)
	asg := make([]int, len(units))
	for i, u := range units {
		b, ok := tedBuckets[u]
		if !ok {
			b, ok = tedBuckets[prefixOf[u]] // a moved keyword's prefix
		}
		if !ok {
			b = uint8(i % 32)
		}
		asg[i] = int(b)
	}
	// What each prefix allows at each place, as newTeddy reads it (past a
	// short keyword, what may follow it).
	follow := Default().ac.follow
	var allows [][4]byteSet
	for _, u := range units {
		var a [4]byteSet
		for j := range 4 {
			a[j] = unitAllows(kws, off, follow, u, j)
		}
		allows = append(allows, a)
	}
	cost := func() int {
		var acc [4][128]uint32
		for ui := range units {
			bit := uint32(1) << asg[ui]
			for j := range 4 {
				for c := range 128 {
					if allows[ui][j].has(lower[c]) || c == 0x7f && allows[ui][j][2]|allows[ui][j][3] != 0 {
						acc[j][c] |= bit
					}
				}
			}
		}
		n := 0
		for _, w := range windows {
			if acc[0][w.b[0]]&acc[1][w.b[1]]&acc[2][w.b[2]]&acc[3][w.b[3]] != 0 {
				n += w.n
			}
		}
		return n
	}
	cur := cost()
	t.Logf("%d prefixes, %d distinct windows; now %.2f%% of %d positions", len(units), len(windows), 100*float64(cur)/float64(total), total)
	for sweep := range 3 {
		moved := false
		for ui := range units {
			orig, best, bestCost := asg[ui], asg[ui], cur
			for b := range 32 {
				if b == orig {
					continue
				}
				asg[ui] = b
				if c := cost(); c < bestCost {
					best, bestCost = b, c
				}
			}
			asg[ui] = best
			if best != orig {
				moved, cur = true, bestCost
			}
		}
		t.Logf("sweep %d: %.2f%%", sweep, 100*float64(cur)/float64(total))
		if !moved {
			break
		}
	}
	printBuckets("tedBuckets", units, asg)
}

// TestTeddyAnchors re-derives tedAnchors (run it when gitleaks' keywords
// change): on the 4-byte windows of real strings, each prefix that
// begins 400 windows or more than the rarest window of each of its
// keywords would, every keyword of it moved to that window. It prints the
// map to paste into teddy.go; run TestTeddyBucketSearch after it.
//
//	CCVET_TEDDY_SEARCH=1 go test ./internal/secret -run TestTeddyAnchors -v
func TestTeddyAnchors(t *testing.T) {
	texts := searchTexts(t)
	freq := map[string]int{}
	for _, s := range texts {
		l := strings.ToLower(string(s))
		for i := 0; i+4 <= len(l); i++ {
			freq[l[i:i+4]]++
		}
	}
	kws := Default().kw
	two := twoByteKeywords(kws)
	byPrefix := map[string][]string{}
	for _, k := range kws {
		if len(k) >= 4 && !two[k[:2]] {
			byPrefix[k[:4]] = append(byPrefix[k[:4]], k)
		}
	}
	var out []string
	for pre, ks := range byPrefix {
		if slices.ContainsFunc(kws, func(k string) bool { return len(k) == 3 && strings.HasPrefix(pre, k) }) {
			continue // a 3-byte keyword's unit ("api") finds the prefix's places anyway
		}
		worst, moved := 0, []string{}
		for _, k := range ks {
			bo, bf := 0, freq[pre]
			for o := 1; o+4 <= len(k); o++ {
				if f := freq[k[o:o+4]]; f < bf && !two[k[o:o+2]] {
					bo, bf = o, f
				}
			}
			worst = max(worst, bf)
			moved = append(moved, fmt.Sprintf("%q: %d,", k, bo))
		}
		if freq[pre]-worst >= 400 {
			t.Logf("%q: %d windows -> %d", pre, freq[pre], worst)
			out = append(out, moved...)
		}
	}
	slices.Sort(out)
	fmt.Printf("var tedAnchors = map[string]int{\n\t%s\n}\n", strings.Join(out, " "))
}

// searchTexts are the strings the searches read (storeStrings); the test
// is skipped unless CCVET_TEDDY_SEARCH is set.
func searchTexts(t *testing.T) [][]byte {
	t.Helper()
	if os.Getenv("CCVET_TEDDY_SEARCH") == "" {
		t.Skip("set CCVET_TEDDY_SEARCH=1 (and CCVET_BENCH_STORE) to search")
	}
	return storeStrings(t)
}

// TestTeddyCandidateRate prints the share of positions of real strings
// (those of $CCVET_BENCH_STORE, else of the corpus) that are candidates
// by the class tables (the AVX-512 VBMI path's) and by the nibble tables
// (the AVX2 path's).
//
//	CCVET_TEDDY_SEARCH=1 CCVET_BENCH_STORE=/path/to/store go test ./internal/secret -run TestTeddyCandidateRate -v
func TestTeddyCandidateRate(t *testing.T) {
	texts := searchTexts(t)
	s := Default()
	ted := withTeddy(t, s, tedGo).ted
	exact, nib := tedGo, tedNibbleSpec
	if tedNative == tedVBMI {
		exact = tedVBMI
	}
	if tedHasAVX2 {
		nib = tedAVX2
	}
	var n, ce, cn int
	for _, text := range texts {
		n += len(text)
		for _, m := range tedBlocksOf(ted, exact, text) {
			ce += bits.OnesCount64(m)
		}
		for _, m := range tedBlocksOf(ted, nib, text) {
			cn += bits.OnesCount64(m)
		}
	}
	t.Logf("%d positions; candidates: class tables %.3f%%, nibble tables %.3f%%", n, 100*float64(ce)/float64(n), 100*float64(cn)/float64(n))
}

// TestTeddyBucketSearchAVX2 re-derives tedBucketsAVX2 as
// TestTeddyBucketSearch does tedBuckets, the cost being the positions the
// nibble tables (tedNibbles) pass: from the current assignment, each unit
// in turn moved to the bucket that passes the fewest. It prints the map
// to paste into teddy.go. Slow (minutes); run only on demand:
//
//	CCVET_TEDDY_SEARCH=1 go test ./internal/secret -run TestTeddyBucketSearchAVX2 -v -timeout 1h
func TestTeddyBucketSearchAVX2(t *testing.T) {
	texts := searchTexts(t)
	// The 4-byte windows of the texts as the AVX2 path reads them (above
	// 0x7e as 0x7e, past the end 0), each as its 8 table indexes: the
	// low nibble and bits 3-6 of each byte.
	counts := map[uint32]int32{}
	total := 0
	for _, s := range texts {
		total += len(s)
		for i := range s {
			var w uint32
			for j := range 4 {
				if i+j < len(s) {
					w |= uint32(min(s[i+j], 0x7e)) << (7 * j)
				}
			}
			counts[w]++
		}
	}
	type window struct {
		lo, hi [4]uint8
		n      int
	}
	windows := make([]window, 0, len(counts))
	for w, n := range counts {
		x := window{n: int(n)}
		for j := range 4 {
			c := w >> (7 * j) & 0x7f
			x.lo[j], x.hi[j] = uint8(c&15), uint8(c>>3)
		}
		windows = append(windows, x)
	}
	// By the first byte's low nibble, so that a bucket's windows are
	// those of the nibbles it allows there.
	slices.SortFunc(windows, func(a, b window) int { return int(a.lo[0]) - int(b.lo[0]) })
	var from [17]int
	for i, w := range windows {
		from[w.lo[0]+1] = i + 1
	}
	for a := 1; a <= 16; a++ {
		from[a] = max(from[a], from[a-1])
	}
	// Each unit's nibbles at each place, as tedMakeNibbles sets them.
	kws, follow := Default().kw, Default().ac.follow
	kunit, off := tedUnits(kws)
	prefixOf := tedUnitPrefixes(kws, kunit, off)
	var units []string
	for u := range prefixOf {
		units = append(units, u)
	}
	sort.Strings(units)
	type nibbles [4][2]uint16 // per place: the low nibbles, the bits 3-6
	unib := make([]nibbles, len(units))
	asg := make([]int, len(units))
	for ui, u := range units {
		for j := range 4 {
			set := unitAllows(kws, off, follow, u, j)
			for c := range 0x7f {
				if tedAllows(&set, c) {
					unib[ui][j][0] |= 1 << (c & 15)
					unib[ui][j][1] |= 1 << (c >> 3)
				}
			}
		}
		asg[ui] = int(tedBucket(tedBucketsAVX2, u, prefixOf[u]))
	}
	bucket := func(b, without, with int) (f nibbles) {
		for ui := range units {
			if ui == with || asg[ui] == b && ui != without {
				for j := range 4 {
					f[j][0] |= unib[ui][j][0]
					f[j][1] |= unib[ui][j][1]
				}
			}
		}
		return f
	}
	passes := func(f *nibbles, w *window) bool {
		for j := range 4 {
			if (f[j][0]>>w.lo[j])&(f[j][1]>>w.hi[j])&1 == 0 {
				return false
			}
		}
		return true
	}
	var tabs [32]nibbles
	for b := range tabs {
		tabs[b] = bucket(b, -1, -1)
	}
	// pass[i] is the buckets window i passes; cur the positions passed.
	pass := make([]uint32, len(windows))
	cur := 0
	for i := range windows {
		for b := range tabs {
			if passes(&tabs[b], &windows[i]) {
				pass[i] |= 1 << b
			}
		}
		if pass[i] != 0 {
			cur += windows[i].n
		}
	}
	t.Logf("%d units, %d distinct windows; now %.3f%% of %d positions", len(units), len(windows), 100*float64(cur)/float64(total), total)
	rest := make([]uint32, len(windows))
	for sweep := range 4 {
		moved := false
		for ui := range units {
			// The windows' buckets with the unit out of its bucket.
			b1 := asg[ui]
			out := bucket(b1, ui, -1)
			base := 0
			for i := range windows {
				rest[i] = pass[i]
				if !passes(&out, &windows[i]) {
					rest[i] &^= 1 << b1
				}
				if rest[i] != 0 {
					base += windows[i].n
				}
			}
			best, bestCost := b1, cur
			for b := range tabs {
				in := tabs[b]
				if b != b1 {
					for j := range 4 {
						in[j][0] |= unib[ui][j][0]
						in[j][1] |= unib[ui][j][1]
					}
				}
				cost := base
				for a := range 16 {
					if in[0][0]>>a&1 == 0 {
						continue
					}
					for i := from[a]; i < from[a+1]; i++ {
						if rest[i] == 0 && passes(&in, &windows[i]) {
							cost += windows[i].n
						}
					}
				}
				if cost < bestCost {
					best, bestCost = b, cost
				}
			}
			if best == b1 {
				continue
			}
			moved = true
			asg[ui] = best
			tabs[b1], tabs[best] = out, bucket(best, -1, -1)
			cur = 0
			for i := range windows {
				pass[i] = rest[i]
				if passes(&tabs[best], &windows[i]) {
					pass[i] |= 1 << best
				}
				if pass[i] != 0 {
					cur += windows[i].n
				}
			}
		}
		t.Logf("sweep %d: %.3f%%", sweep, 100*float64(cur)/float64(total))
		if !moved {
			break
		}
	}
	printBuckets("tedBucketsAVX2", units, asg)
}

// printBuckets prints a search's assignment of prefixes (units) to
// buckets (asg) as the Go map literal named name, a line per bucket.
func printBuckets(name string, units []string, asg []int) {
	var lines []string
	for b := range 32 {
		var l []string
		for ui, u := range units {
			if asg[ui] == b {
				l = append(l, fmt.Sprintf("%q: %d,", u, b))
			}
		}
		if len(l) > 0 {
			lines = append(lines, "\t"+strings.Join(l, " "))
		}
	}
	slices.Sort(lines)
	fmt.Printf("var %s = map[string]uint8{\n%s\n}\n", name, strings.Join(lines, "\n"))
}
