package secret

import (
	"encoding/binary"
	"math/bits"
	"strings"
)

// teddy finds keyword candidates 64 bytes at a time (teddyBlocks, in
// assembly where the processor has AVX-512 VBMI) and checks each against
// the keywords that start with its two bytes: the same occurrences the
// automaton finds, in half the time or less on real text.
type teddy struct {
	// generic reads the blocks with teddyBlocksGo (tests, where the
	// processor has no AVX-512 VBMI).
	generic bool
	tables  tedTables
	// first2[c0&31<<5|c1&31] is the group of the keywords that start
	// with lowercased bytes c0 c1 read so (0: none): group g's keywords
	// are keys[start[g]:start[g+1]], their words pats. The tables are
	// small (1 KB, 1 KB) so as to stay in the cache between strings.
	first2 [32 * 32]uint8
	start  []uint16
	pats   []tedPat
	keys   []tedKey
}

// tedPat is a keyword's first 8 bytes (or fewer) as a little-endian
// word, and the mask of those bytes.
type tedPat struct{ pat, mask uint64 }

// tedTables says, for each group of 8 buckets and each of a keyword's
// first four bytes, which buckets allow a byte of each class there (see
// tedClass).
type tedTables [4][4][64]byte

// tedClass is byte c's class, the low 6 bits of what the assembly makes
// of it in three instructions: c above 0x7e read as 0x7e, then bit 5
// cleared where bit 6 is set. Both cases of a letter share a class; a
// class holds one byte of 0x20 to 0x3f, or the two of 0x40 to 0x7f that
// differ in bit 5 (@ and `, [ and {, \ and |, ] and }, ^ and ~, _ and
// DEL) and the control byte 64 below the first; the bytes above 0x7e are
// in the class of ~, which the keywords hold only as the second byte of
// "q~". So a class that a keyword's byte is in holds a few other bytes
// too: candidates the finder's check drops, never one missed. One
// 64-entry table read (VPERMB, one instruction) replaces a 128-entry one
// (VPERMT2B, two on the port both use).
func tedClass(c byte) byte {
	c = min(c, 0x7e)
	return (c &^ (c >> 1 & 0x20)) & 0x3f
}

// tedKey is a keyword to compare at a candidate.
type tedKey struct {
	ki     int
	k      string
	follow *follow // what may follow k (nil: any)
}

// tedBuckets assigns keyword prefixes (a keyword's first four bytes, or
// the whole of a shorter one) to the 32 buckets: chosen by a local search
// that minimised the candidates on the strings of a real-shaped store
// (178 MB: 1.31% of positions are candidates, where an exact filter on
// the four bytes passes 1.06%, on three 2.9%; 1.26% since the places
// after a short keyword take only what may follow it, for which the
// search found no better assignment); TestTeddyBucketSearch redoes it. A
// prefix not listed goes to bucket 31.
var tedBuckets = map[string]uint8{
	"----": 6, "gems": 6, "mess": 6, "p8e-": 6, "xkey": 6,
	"4b1d": 27, "tele": 27, "test": 27, "toke": 27, "twit": 27,
	"_git": 25, "_mmk": 25, "dt0c": 25, "duff": 25, "flic": 25,
	"_pub": 2, "abia": 2, "absk": 2, "adob": 2, "aiza": 2, "akia": 2, "asia": 2,
	"a3-": 15, "a3t": 15, "sg.": 15,
	"acca": 19, "acce": 19, "akcp": 19, "secr": 19, "send": 19, "sent": 19, "sona": 19, "yand": 19,
	"adaf": 3, "arti": 3, "krak": 3, "nrak": 3, "nyti": 3, "xray": 3,
	"age-": 21, "airt": 21, "auth": 21, "curl": 21, "gith": 21, "gitt": 21,
	"algo": 29, "atat": 29, "matt": 29,
	"alib": 13, "mail": 13, "mapb": 13, "rapi": 13, "s-s4": 13,
	"api": 16, "api-": 16, "api_": 16, "key": 16,
	"asan": 5, "atla": 5, "pmak": 5, "psca": 5, "pul-": 5, "zxlk": 5,
	"beam": 12, "bedr": 12, "glag": 12, "glcb": 12, "glim": 12,
	"bint": 10, "bitb": 10, "bitt": 10, "dp.p": 10, "dron": 10, "drop": 10, "finn": 10,
	"bund": 24, "etsy": 24, "ext_": 24, "netl": 24, "npm_": 24, "ntn_": 24, "zend": 24,
	"cloj": 11, "clou": 11, "doo_": 11, "hook": 11, "ico-": 11, "look": 11, "v1.0": 11,
	"cmvm": 20, "coin": 20, "fm2_": 20, "fo1_": 20, "hvb.": 20, "hvs.": 20, "t3bl": 20,
	"co_a": 9, "conf": 9, "cont": 9, "gho_": 9, "ghr_": 9, "ghu_": 9, "glc_": 9, "gldt": 9, "glff": 9, "glft": 9, "gloa": 9, "glrt": 9, "goca": 9, "gr13": 9,
	"code": 23, "cohe": 23, "cred": 23, "face": 23, "fres": 23, "xoxb": 23, "xoxe": 23, "xoxo": 23, "xoxp": 23, "xoxs": 23,
	"dapi": 0, "data": 0, "eaaa": 0, "eaac": 0, "eaam": 0, "ezak": 0, "eztk": 0, "okta": 0, "pat.": 0, "pypi": 0,
	"disc": 17, "laun": 17, "ops_": 17, "pplx": 17,
	"dnke": 1, "ente": 1, "inte": 1, "intr": 1, "rdme": 1, "sntr": 1, "snyk": 1,
	"dop_": 7, "dor_": 7, "sat.": 7, "sgp_": 7, "sour": 7, "sq0a": 7, "squa": 7, "xoxa": 7, "xoxr": 7,
	"ey": 28, "q~": 28,
	"fast": 4, "ghp_": 4, "ghs_": 4, "glpa": 4, "glpt": 4, "glsa": 4, "glso": 4, "pass": 4, "shpa": 4, "shpc": 4, "shpp": 4, "shps": 4, "xapp": 4,
	"fini": 8, "fio-": 8, "lin_": 8, "line": 8, "link": 8, "live": 8, "ltai": 8, "plai": 8, "pnu_": 8,
	"flwp": 31, "flws": 31, "hubs": 31, "inco": 31, "kuco": 31, "nrjs": 31,
	"fm1": 30, "hf_": 30, "rk_l": 30, "rk_p": 30, "rk_t": 30, "sc_": 30, "sm_a": 30, "sm_p": 30, "sm_s": 30,
	"hero": 14, "jfro": 14, "jira": 14, "mera": 14, "ruby": 14, "webh": 14,
	"hrku": 22, "priv": 22, "scau": 22, "sha2": 22, "tfp_": 22, "tk-u": 22, "trav": 22,
	"new-": 18, "new_": 18, "newr": 18, "newy": 18, "nrii": 18, "ship": 18, "sumo": 18,
	"s.": 26, "sk": 26,
}

// newTeddy returns the finder for kws (lowercase, indexes as the
// automaton's) and what may follow them (nil, or one per keyword), or
// nil when some keyword is shorter than 2 bytes or not ASCII (or there
// are too many).
func newTeddy(kws []string, follow []*follow) *teddy {
	if len(kws) > 1<<15 {
		return nil
	}
	t := &teddy{}
	groups := [][]int{nil}
	units := map[string]bool{}
	for _, k := range kws {
		if len(k) < 2 {
			return nil
		}
		for i := 0; i < len(k); i++ {
			if k[i] >= 0x7f || lower[k[i]] != k[i] {
				return nil
			}
		}
		if len(k) == 2 {
			units[k] = true
		}
	}
	for ki, k := range kws {
		if len(k) > 2 && !units[k[:2]] {
			units[k[:min(4, len(k))]] = true
		}
		i := int(k[0]&31)<<5 | int(k[1]&31)
		if t.first2[i] == 0 {
			if len(groups) == 256 {
				return nil
			}
			t.first2[i] = uint8(len(groups))
			groups = append(groups, nil)
		}
		g := t.first2[i]
		groups[g] = append(groups[g], ki)
	}
	for _, g := range groups {
		t.start = append(t.start, uint16(len(t.keys)))
		for _, ki := range g {
			k := kws[ki]
			var p tedPat
			for j := 0; j < min(8, len(k)); j++ {
				p.pat |= uint64(k[j]) << (8 * j)
				p.mask |= 0xff << (8 * j)
			}
			t.pats = append(t.pats, p)
			e := tedKey{ki: ki, k: k}
			if follow != nil {
				e.follow = follow[ki]
			}
			t.keys = append(t.keys, e)
		}
	}
	t.start = append(t.start, uint16(len(t.keys)))
	for u := range units {
		b, ok := tedBuckets[u]
		if !ok {
			b = 31
		}
		g, bit := b/8, byte(1)<<(b%8)
		for j := range 4 {
			tab := &t.tables[g][j]
			set := unitAllows(kws, follow, u, j)
			for c := range 0x80 {
				// Both cases of a letter; the bytes from 0x7f on are read
				// as 0x7e.
				if set.has(lower[c]) || c == 0x7e && (set[2]|set[3]) != 0 {
					tab[tedClass(byte(c))] |= bit
				}
			}
		}
	}
	return t
}

// unitAllows is the set of lowercased bytes that may be at offset j of a
// keyword of kws that starts with unit u: its own byte there (u's, for j
// inside u), or past its end what may follow it (any byte, where nothing
// is said).
func unitAllows(kws []string, follow []*follow, u string, j int) byteSet {
	var set byteSet
	for ki, k := range kws {
		if !strings.HasPrefix(k, u) {
			continue
		}
		switch {
		case j < len(k):
			set.add(k[j])
		case follow == nil || follow[ki] == nil || j > follow[ki].last:
			return anyByte
		default:
			for c := range 256 {
				if follow[ki].at[j].has(byte(c)) {
					set.add(lower[c]) // the bytes from 0x80 on as they are
				}
			}
		}
	}
	return set
}

// tedChunk is how many blocks of 64 bytes one teddyBlocks call reads.
const tedChunk = 16

// each is matcher.each with the finder: every (keyword, start) in text,
// by increasing start; it stops when fn returns false.
func (t *teddy) each(text []byte, fn func(ki, start int) bool) {
	var out [tedChunk]uint64
	for off := 0; off < len(text)-1; off += 64 * tedChunk {
		k := min((len(text)-off+63)/64, tedChunk)
		if t.generic {
			teddyBlocksGo(&t.tables, text[off:], out[:k])
		} else {
			teddyBlocks(&t.tables, text[off:], out[:k])
		}
		for b, m := range out[:k] {
			for m != 0 {
				p := off + 64*b + bits.TrailingZeros64(m)
				m &= m - 1
				if p+8 > len(text) {
					if !t.checkEnd(text, p, fn) {
						return
					}
					continue
				}
				// The candidate's first 8 bytes, lowercased, say the
				// keywords to compare: those that start with its first 2.
				x := lower8(binary.LittleEndian.Uint64(text[p:]))
				g := t.first2[(x&31)<<5|(x>>8&31)]
				if g == 0 {
					continue
				}
				if !t.check(text, p, x, g, fn) {
					return
				}
			}
		}
	}
}

// check calls fn for each keyword of group g that starts at text[p], x
// being the 8 bytes there, lowercased.
func (t *teddy) check(text []byte, p int, x uint64, g uint8, fn func(ki, start int) bool) bool {
	for i := int(t.start[g]); i < int(t.start[g+1]); i++ {
		if (x^t.pats[i].pat)&t.pats[i].mask != 0 {
			continue
		}
		e := &t.keys[i]
		if len(e.k) > 8 && !hasKeywordAt(text, p, e.k) || e.follow != nil && !e.follow.allows(text, p) {
			continue
		}
		if !fn(e.ki, p) {
			return false
		}
	}
	return true
}

// checkEnd is check near the end of text.
func (t *teddy) checkEnd(text []byte, p int, fn func(ki, start int) bool) bool {
	if p+1 >= len(text) {
		return true
	}
	g := t.first2[int(text[p]&31)<<5|int(text[p+1]&31)]
	if g == 0 {
		return true
	}
	for _, e := range t.keys[t.start[g]:t.start[g+1]] {
		if !hasKeywordAt(text, p, e.k) || e.follow != nil && !e.follow.allows(text, p) {
			continue
		}
		if !fn(e.ki, p) {
			return false
		}
	}
	return true
}

// teddyBlocksGo is teddyBlocks in Go, bytes past the end of text read
// as zeros: the assembly's specification, and the finder tests use where
// the processor has none.
func teddyBlocksGo(t *tedTables, text []byte, out []uint64) {
	for k := range out {
		if 64*k >= len(text) {
			return
		}
		var m uint64
		for i := 0; i < 64 && 64*k+i < len(text); i++ {
			p := 64*k + i
			for g := range t {
				a := byte(0xff)
				for j := range 4 {
					var c byte
					if p+j < len(text) {
						c = text[p+j]
					}
					a &= t[g][j][tedClass(c)]
				}
				if a != 0 {
					m |= 1 << i
					break
				}
			}
		}
		out[k] = m
	}
}

// lower8 lowercases the ASCII letters among the 8 bytes of x.
func lower8(x uint64) uint64 {
	const ones = 0x0101010101010101
	h := x & (0x7f * ones)
	ge := h + (0x80-'A')*ones   // high bit: h >= 'A'
	gt := h + (0x80-'Z'-1)*ones // high bit: h > 'Z'
	return x | (ge&^gt&^x&(0x80*ones))>>2
}
