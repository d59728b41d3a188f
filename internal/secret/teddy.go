package secret

import (
	"encoding/binary"
	"math/bits"
	"strings"
)

// teddy finds keyword candidates 64 bytes at a time (teddyBlocks, in
// assembly where the processor has AVX-512 VBMI, else teddyBlocksAVX2
// where it has AVX2) and checks each against the keywords that start with
// its two bytes: the same occurrences the automaton finds, in half the
// time or less on real text.
type teddy struct {
	// path says which function reads the blocks (newMatcher sets the
	// processor's; the tests try each).
	path   tedPath
	tables tedTables
	// nibbles is tables as the AVX2 path reads them.
	nibbles tedNibbles
	// first2[c0&31<<5|c1&31] is the group of the keywords that start
	// with lowercased bytes c0 c1 read so (0: none): group g's keywords
	// are keys[start[g]:start[g+1]], their words pats. The tables are
	// small (1 KB, 1 KB) so as to stay in the cache between strings.
	first2 [32 * 32]uint8
	start  []uint16
	pats   []tedPat
	keys   []tedKey
}

// tedPath is a way to read the blocks.
type tedPath uint8

const (
	tedGo   tedPath = iota // teddyBlocksGo: anywhere, for the tests
	tedVBMI                // teddyBlocks: AVX-512 VBMI, by tables
	tedAVX2                // teddyBlocksAVX2: AVX2, by nibbles
)

func (p tedPath) String() string { return [...]string{"go", "vbmi", "avx2"}[p] }

// tedPat is a keyword's first 8 bytes (or fewer) as a little-endian
// word, and the mask of those bytes.
type tedPat struct{ pat, mask uint64 }

// tedTables says, for each group of 8 buckets and each of a keyword's
// first four bytes, which buckets allow a byte of each class there (see
// tedClass).
type tedTables [4][4][64]byte

// tedNibbles is tedTables for AVX2, whose byte shuffle (VPSHUFB) reads a
// 16-entry table: for each group and place, the buckets that allow some
// byte with the same low four bits as byte c (lo, by c&15), and those
// that allow some byte with the same bits 3 to 6 (hi, by c>>3), each
// table written twice, once for each 16-byte half (lane) of a 32-byte
// register; a byte above 0x7e reads as 0x7e. A bucket that allows c is in
// both of its entries, so lo[c&15]&hi[c>>3] holds every bucket that
// allows c, and some more (a bucket that allows one byte with c's bits
// 0-3 and another with its bits 3-6): candidates the finder's check
// drops, never one missed. The tables are of bytes, not classes (which
// would take three more instructions a byte): both cases of a letter,
// which differ in bit 5, put two entries in hi. That the two tables share
// bit 3 matters: with bits 0-3 and 4-7 (and tedBuckets) ten times as
// many positions were candidates as with the class tables, with bits 0-3
// and 3-6 (and tedBucketsAVX2) 1.5 times as many.
type tedNibbles [4][4][2][32]byte

// tedUnitAllows calls fn with the bucket of each unit (by buckets), each
// place j, and the bytes a keyword found there allows at j
// (lowercased; see unitAllows).
func tedUnitAllows(kws, unit []string, off []int, follow []*follow, buckets map[string]uint8, fn func(b uint8, j int, set *byteSet)) {
	for u, prefix := range tedUnitPrefixes(kws, unit, off) {
		b := tedBucket(buckets, u, prefix)
		for j := range 4 {
			set := unitAllows(kws, off, follow, u, j)
			fn(b, j, &set)
		}
	}
}

// tedAllows says whether a place that allows set (lowercased) allows
// byte c of 0 to 0x7f, the bytes from 0x7f on read as 0x7e.
func tedAllows(set *byteSet, c int) bool {
	return set.has(lower[c]) || c == 0x7e && (set[1]>>63|set[2]|set[3]) != 0
}

// tedMakeTables returns the class tables of the units, found where off
// says, with buckets' assignment.
func tedMakeTables(kws, unit []string, off []int, follow []*follow, buckets map[string]uint8) *tedTables {
	var t tedTables
	tedUnitAllows(kws, unit, off, follow, buckets, func(b uint8, j int, set *byteSet) {
		for c := range 0x80 {
			if tedAllows(set, c) {
				t[b/8][j][tedClass(byte(c))] |= 1 << (b % 8)
			}
		}
	})
	return &t
}

// tedMakeNibbles is tedMakeTables for the AVX2 path.
func tedMakeNibbles(kws, unit []string, off []int, follow []*follow, buckets map[string]uint8) *tedNibbles {
	var n tedNibbles
	tedUnitAllows(kws, unit, off, follow, buckets, func(b uint8, j int, set *byteSet) {
		lo, hi := &n[b/8][j][0], &n[b/8][j][1]
		for c := range 0x7f {
			if tedAllows(set, c) {
				lo[c&15] |= 1 << (b % 8)
				lo[16+c&15] |= 1 << (b % 8)
				hi[c>>3] |= 1 << (b % 8)
				hi[16+c>>3] |= 1 << (b % 8)
			}
		}
	})
	return &n
}

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

// tedKey is a keyword to compare at a candidate: the candidate is its
// unit, off bytes into it (tedAnchors).
type tedKey struct {
	ki     int
	k      string
	off    int
	follow *follow // what may follow k (nil: any)
}

// tedBuckets assigns the units (a keyword's first four bytes, or the
// whole of a shorter one, or the four bytes tedAnchors moves it to) to
// the 32 buckets: chosen by a local search that minimised the candidates
// on the strings of the real corpus (30 MB; 0.62% of positions are
// candidates; before tedAnchors, on a real-shaped store made from the
// same transcripts, 1.31%, where an exact filter on the four bytes
// passed 1.06%, on three 2.9%); TestTeddyBucketSearch redoes it. A unit
// not listed goes to its prefix's bucket when tedAnchors moved it, else
// to bucket 31.
var tedBuckets = map[string]uint8{
	"---b": 18, "_pub": 18, "arkl": 18, "pnu_": 18, "pplx": 18, "zxlk": 18,
	"-bir": 11, "absk": 11, "bedr": 11, "intr": 11, "legr": 11, "sntr": 11, "snyk": 11,
	"4b1d": 19, "bund": 19, "sent": 19, "sswd": 19, "sumo": 19, "yand": 19, "zend": 19,
	"_bir": 25, "_git": 25, "dbir": 25, "duff": 25, "fast": 25, "flic": 25, "ys.c": 25,
	"_mmk": 30, "fm1": 30, "hf_": 30, "rdme": 30, "rk_l": 30, "rk_p": 30, "rk_t": 30, "sc_": 30, "sm_a": 30, "sm_p": 30, "sm_s": 30,
	"a3-": 15, "a3t": 15, "sg.": 15,
	"abia": 2, "adob": 2, "adog": 2, "aiza": 2, "akia": 2, "asia": 2, "gems": 2,
	"acca": 5, "acce": 5, "akcp": 5, "atla": 5, "ks.s": 5, "psca": 5, "pul-": 5, "v1.0": 5,
	"adaf": 29, "asan": 29, "att3": 29, "dt0c": 29, "glag": 29, "ltai": 29,
	"age-": 21, "airt": 21, "auth": 21, "curl": 21, "himp": 21,
	"algo": 12, "alib": 12, "beam": 12, "ebir": 12, "glim": 12,
	"api": 16, "api-": 16, "api_": 16, "key": 16,
	"assw": 17, "dop_": 17, "dor_": 17, "dp.p": 17, "ops_": 17, "s-s4": 17, "ship": 17,
	"bint": 10, "bitb": 10, "bitt": 10, "dron": 10, "drop": 10, "finn": 10, "gitt": 10, "gr13": 10, "ub_p": 10,
	"cebo": 23, "cohe": 23, "rede": 23, "reds": 23, "rmos": 23, "ruby": 23, "webh": 23, "xoxe": 23, "xoxo": 23, "xoxs": 23,
	"cloj": 9, "clou": 9, "gho_": 9, "ghr_": 9, "glff": 9, "glft": 9, "gloa": 9, "glrt": 9, "ico-": 9, "ilgu": 9,
	"cmvm": 20, "co_a": 20, "coin": 20, "fm2_": 20, "fo1_": 20, "goca": 20, "hvb.": 20, "hvs.": 20,
	"dapi": 13, "dnke": 13, "laid": 13, "pypi": 13, "raki": 13, "rapi": 13, "xapp": 13,
	"doo_": 3, "fio-": 3, "krak": 3, "nrak": 3, "onar": 3, "tifa": 3,
	"e_pu": 27, "gweb": 27, "t_pu": 27, "toke": 27, "twit": 27,
	"eaaa": 0, "eaac": 0, "eaam": 0, "ezak": 0, "eztk": 0, "odec": 0, "okta": 0, "pat.": 0, "pmak": 0, "sat.": 0,
	"est_": 24, "ext_": 24, "lin_": 24, "netl": 24, "ntfu": 24, "ntn_": 24,
	"etsy": 6, "mapb": 6, "p8e-": 6, "rceg": 6,
	"ey":   28,
	"flue": 4, "flwp": 4, "flws": 4, "ghp_": 4, "ghs_": 4, "ghu_": 4, "glc_": 4, "glcb": 4, "gldt": 4, "glpa": 4, "glpt": 4, "glsa": 4, "glso": 4, "shpa": 4, "shpc": 4, "shpp": 4, "shps": 4, "sq0a": 4, "squa": 4,
	"fres": 31, "hubs": 31, "npm_": 31, "nrjs": 31, "nyti": 31,
	"hero": 14, "inea": 14, "ive_": 14, "jfro": 14, "jira": 14,
	"hrku": 22, "priv": 22, "scau": 22, "sgp_": 22, "sha2": 22, "tfp_": 22, "tk-u": 22, "trav": 22,
	"ked-": 8, "ked_": 8, "kedi": 8, "kuco": 8, "new-": 8, "new_": 8, "newr": 8, "newy": 8, "nici": 8, "nrii": 8, "xray": 8,
	"oker": 1, "scor": 1, "secr": 1, "t3bl": 1, "terc": 1,
	"q~": 26, "s.": 26,
	"sk": 7, "xkey": 7, "xoxa": 7, "xoxb": 7, "xoxp": 7, "xoxr": 7,
}

// tedBucketsAVX2 is tedBuckets for the AVX2 path, whose nibble tables
// (tedNibbles) let more through where a bucket's units differ: chosen by
// the same local search with those tables' candidates as the cost (on
// the strings of the real corpus, 30 MB: with tedBuckets 3.59% of
// positions are candidates, with these 0.95%, where the class tables
// pass 0.63%; on the 200 MB no-repeat store's strings, which the search
// never saw, 1.05% against 0.68%); TestTeddyBucketSearchAVX2 redoes it.
var tedBucketsAVX2 = map[string]uint8{
	"---b": 2, "_mmk": 2, "adob": 2, "adog": 2, "beam": 2, "bitb": 2, "cmvm": 2,
	"-bir": 12, "abia": 12, "akcp": 12, "akia": 12, "alib": 12, "ebir": 12, "flic": 12, "gems": 12, "glcb": 12, "glim": 12,
	"4b1d": 13, "laid": 13, "pypi": 13, "raki": 13, "rapi": 13, "twit": 13,
	"_bir": 25, "_git": 25, "dapi": 25, "dbir": 25, "fast": 25, "oker": 25,
	"_pub": 1, "pnu_": 1, "sq0a": 1, "squa": 1, "ub_p": 1, "xapp": 1,
	"a3-": 15, "a3t": 15, "t3bl": 15,
	"absk": 11, "bedr": 11, "intr": 11, "legr": 11, "newr": 11, "secr": 11, "sntr": 11, "snyk": 11,
	"acca": 5, "acce": 5, "asia": 5, "atla": 5, "psca": 5, "pul-": 5, "zxlk": 5,
	"adaf": 6, "eaac": 6, "eaam": 6, "odec": 6, "rceg": 6,
	"age-": 27, "e_pu": 27, "ive_": 27, "p8e-": 27, "sgp_": 27, "t_pu": 27, "tfp_": 27,
	"airt": 9, "algo": 9, "cloj": 9, "clou": 9, "fio-": 9, "gho_": 9, "ghr_": 9, "glrt": 9, "ico-": 9, "ilgu": 9,
	"aiza": 16, "api": 16, "api-": 16, "api_": 16, "key": 16,
	"arkl": 21, "assw": 21, "coin": 21, "curl": 21,
	"asan": 18, "att3": 18, "auth": 18, "dt0c": 18, "duff": 18, "ys.c": 18,
	"bint": 10, "bitt": 10, "dp.p": 10, "dron": 10, "drop": 10, "finn": 10, "gitt": 10, "gldt": 10, "glft": 10, "glpt": 10, "himp": 10,
	"bund": 29, "gweb": 29, "ltai": 29, "ruby": 29,
	"cebo": 23, "cohe": 23, "rede": 23, "reds": 23, "rmos": 23, "xoxe": 23, "xoxo": 23, "xoxs": 23,
	"co_a": 30, "fm1": 30, "fo1_": 30, "hf_": 30, "rk_l": 30, "rk_p": 30, "rk_t": 30, "sc_": 30, "sm_a": 30, "sm_p": 30, "sm_s": 30,
	"dnke": 3, "hrku": 3, "krak": 3, "nrak": 3, "ntfu": 3, "pmak": 3, "tifa": 3, "toke": 3,
	"doo_": 20, "dop_": 20, "dor_": 20, "glag": 20, "glc_": 20, "glff": 20, "gloa": 20, "goca": 20, "gr13": 20, "hvb.": 20, "hvs.": 20,
	"eaaa": 0, "ezak": 0, "eztk": 0, "mapb": 0, "okta": 0, "pat.": 0, "sat.": 0,
	"est_": 24, "ext_": 24, "lin_": 24, "npm_": 24, "ntn_": 24, "pplx": 24, "sha2": 24,
	"etsy": 17, "ops_": 17, "ship": 17, "v1.0": 17,
	"ey":   28,
	"flue": 4, "flwp": 4, "flws": 4, "ghp_": 4, "ghs_": 4, "ghu_": 4, "glpa": 4, "glsa": 4, "glso": 4, "rdme": 4, "shpa": 4, "shpc": 4, "shpp": 4, "shps": 4,
	"fm2_": 31, "fres": 31, "hubs": 31, "ks.s": 31, "kuco": 31, "nici": 31,
	"hero": 14, "inea": 14, "jfro": 14, "jira": 14, "terc": 14, "webh": 14,
	"ked-": 8, "ked_": 8, "kedi": 8, "netl": 8, "new-": 8, "new_": 8, "newy": 8, "nrii": 8, "nrjs": 8, "nyti": 8,
	"onar": 22, "priv": 22, "scau": 22, "tk-u": 22, "trav": 22, "xray": 22,
	"q~": 26, "s.": 26,
	"s-s4": 19, "scor": 19, "sent": 19, "sswd": 19, "sumo": 19, "yand": 19, "zend": 19,
	"sg.": 7, "sk": 7, "xkey": 7, "xoxa": 7, "xoxb": 7, "xoxp": 7, "xoxr": 7,
}

// tedAnchors moves the unit of a keyword whose first four bytes begin
// common words ("cont" of "contentful", "code" of "codecov", "----" of
// "-----begin") to the four bytes at the offset given, rare in text
// ("ntfu", "odec", "---b"): the finder then reports the keyword at its
// unit's place minus the offset. Chosen on the 4-byte windows of the
// real corpus's strings: each prefix that 400 windows or more begin
// while a window further in is rarer for each of its keywords, every
// keyword of it moved to its rarest window (TestTeddyAnchors prints the
// counts). With the buckets searched again, the candidates on the
// corpus's strings went from 1.34% of positions to 0.62%, on the 200 MB
// Windows no-repeat store's from 1.26% to 0.67%, on 37 MB of Go modules'
// sources (code and prose the searches never saw) from 1.20% to 0.66%;
// the keywords found are the same. A keyword the finder already looks
// for by a two-byte unit ("sk", "ey", "s.") keeps its place.
var tedAnchors = map[string]int{
	"-----begin": 2, "artifactory": 2, "atatt3": 2, "codecov": 1, "confluence": 3,
	"confluent": 3, "contentful": 5, "credential": 1, "creds": 1, "datadog": 3,
	"discord": 2, "enterprise.contribsys.com": 19, "facebook": 2, "finicity": 2,
	"github_pat_": 4, "hooks.slack.com": 3, "incomingwebhook": 7, "intercom": 2,
	"launchdarkly": 7, "linear": 1, "linked-in": 3, "linked_in": 3, "linkedin": 3,
	"live_": 1, "live_pub": 3, "looker": 2, "mailchimp": 5, "mailgun": 2, "mattermost": 5,
	"meraki": 2, "message-bird": 7, "message_bird": 7, "messagebird": 6, "passwd": 2,
	"password": 1, "plaid": 1, "sendbird": 3, "sonar": 1, "sourcegraph": 3, "telegr": 2,
	"test_": 1, "test_pub": 3,
}

// tedUnits says where the finder looks for each keyword of kws: unit[ki]
// is the bytes the tables find (its first four, or the whole of a
// shorter keyword; "" where a two-byte keyword is the unit that finds it),
// off[ki] where they start in the keyword (tedAnchors).
func tedUnits(kws []string) (unit []string, off []int) {
	two := twoByteKeywords(kws)
	unit, off = make([]string, len(kws)), make([]int, len(kws))
	for ki, k := range kws {
		switch {
		case len(k) == 2:
			unit[ki] = k
		case two[k[:2]]:
			// found by the two-byte unit
		default:
			o := tedAnchors[k]
			if o+4 > len(k) || two[k[o:o+2]] {
				o = 0
			}
			unit[ki], off[ki] = k[o:min(o+4, len(k))], o
		}
	}
	return unit, off
}

// twoByteKeywords is the set of kws two bytes long: the units that find
// every keyword starting with them.
func twoByteKeywords(kws []string) map[string]bool {
	two := map[string]bool{}
	for _, k := range kws {
		if len(k) == 2 {
			two[k] = true
		}
	}
	return two
}

// tedUnitPrefixes is the distinct units of tedUnits' result, each with the
// first four bytes of the keyword tedAnchors moved to it ("" for a unit
// that is a keyword's own first bytes): the prefix whose bucket it takes
// when tedBuckets does not list it (tedBucket).
func tedUnitPrefixes(kws, unit []string, off []int) map[string]string {
	units := map[string]string{}
	for ki, u := range unit {
		switch {
		case u == "":
		case off[ki] > 0:
			units[u] = kws[ki][:4]
		default:
			if _, ok := units[u]; !ok {
				units[u] = ""
			}
		}
	}
	return units
}

// tedBucket is unit u's bucket by buckets (tedBuckets or
// tedBucketsAVX2): its own, else, for the unit an anchored keyword moved
// to, its prefix's, else 31.
func tedBucket(buckets map[string]uint8, u, prefix string) uint8 {
	if b, ok := buckets[u]; ok {
		return b
	}
	if b, ok := buckets[prefix]; ok && prefix != "" {
		return b
	}
	return 31
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
	for _, k := range kws {
		if len(k) < 2 {
			return nil
		}
		for i := 0; i < len(k); i++ {
			if k[i] >= 0x7f || lower[k[i]] != k[i] {
				return nil
			}
		}
	}
	unit, off := tedUnits(kws)
	for ki, k := range kws {
		// A keyword's group is the first two bytes of where it is found.
		o := off[ki]
		i := int(k[o]&31)<<5 | int(k[o+1]&31)
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
			k, o := kws[ki], off[ki]
			var p tedPat
			for j := 0; j < min(8, len(k)-o); j++ {
				p.pat |= uint64(k[o+j]) << (8 * j)
				p.mask |= 0xff << (8 * j)
			}
			t.pats = append(t.pats, p)
			e := tedKey{ki: ki, k: k, off: o}
			if follow != nil {
				e.follow = follow[ki]
			}
			t.keys = append(t.keys, e)
		}
	}
	t.start = append(t.start, uint16(len(t.keys)))
	t.tables = *tedMakeTables(kws, unit, off, follow, tedBuckets)
	t.nibbles = *tedMakeNibbles(kws, unit, off, follow, tedBucketsAVX2)
	return t
}

// unitAllows is the set of lowercased bytes that may be at offset j of
// unit u's place: for each keyword of kws found there (whose bytes from
// off[ki] on start with u), its own byte there (u's, for j inside u), or
// past its end what may follow it (any byte, where nothing is said).
func unitAllows(kws []string, off []int, follow []*follow, u string, j int) byteSet {
	var set byteSet
	for ki, k := range kws {
		k = k[off[ki]:] // from where it is found
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
// by increasing place of its unit (so a keyword anchored further in, see
// tedAnchors, may come after one that starts later); it stops when fn
// returns false.
func (t *teddy) each(text []byte, fn func(ki, start int) bool) {
	var out [tedChunk]uint64
	for off := 0; off < len(text)-1; off += 64 * tedChunk {
		k := min((len(text)-off+63)/64, tedChunk)
		switch t.path {
		case tedVBMI:
			teddyBlocks(&t.tables, text[off:], out[:k])
		case tedAVX2:
			teddyBlocksAVX2(&t.nibbles, text[off:], out[:k])
		default:
			teddyBlocksGo(&t.tables, text[off:], out[:k])
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

// check calls fn for each keyword of group g found at text[p] (that
// starts there, or off bytes before), x being the 8 bytes there,
// lowercased.
func (t *teddy) check(text []byte, p int, x uint64, g uint8, fn func(ki, start int) bool) bool {
	for i := int(t.start[g]); i < int(t.start[g+1]); i++ {
		if (x^t.pats[i].pat)&t.pats[i].mask != 0 {
			continue
		}
		e := &t.keys[i]
		s := p - e.off
		if s < 0 || (e.off > 0 || len(e.k) > 8) && !hasKeywordAt(text, s, e.k) || e.follow != nil && !e.follow.allows(text, s) {
			continue
		}
		if !fn(e.ki, s) {
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
		s := p - e.off
		if s < 0 || !hasKeywordAt(text, s, e.k) || e.follow != nil && !e.follow.allows(text, s) {
			continue
		}
		if !fn(e.ki, s) {
			return false
		}
	}
	return true
}

// teddyBlocksGo is teddyBlocks in Go, bytes past the end of text read
// as zeros: the assembly's specification, and the finder tests use where
// the processor has none.
func teddyBlocksGo(t *tedTables, text []byte, out []uint64) {
	blocksSpec(text, out, len(t), func(g, j int, c byte) byte { return t[g][j][tedClass(c)] })
}

// teddyNibblesGo is teddyBlocksAVX2 in Go, bytes past the end of text
// read as zeros: its specification.
func teddyNibblesGo(n *tedNibbles, text []byte, out []uint64) {
	blocksSpec(text, out, len(n), func(g, j int, c byte) byte {
		c = min(c, 0x7e)
		return n[g][j][0][c&15] & n[g][j][1][c>>3]
	})
}

// blocksSpec sets out[k] to the candidates among bytes 64k to 64k+63 of
// text, bytes past its end read as zeros: a position is one when, for one
// of the groups of buckets, some bucket allows each of the four bytes from
// it (allow(g, j, c): the buckets of group g that allow byte c at place j).
func blocksSpec(text []byte, out []uint64, groups int, allow func(g, j int, c byte) byte) {
	for k := range out {
		if 64*k >= len(text) {
			return
		}
		var m uint64
		for i := 0; i < 64 && 64*k+i < len(text); i++ {
			p := 64*k + i
			for g := range groups {
				a := byte(0xff)
				for j := range 4 {
					var c byte
					if p+j < len(text) {
						c = text[p+j]
					}
					a &= allow(g, j, c)
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
