package secret

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// Found is one secret in a JSON text: the match in the decoded string, and
// where that string's bytes holding the secret lie in the raw JSON.
type Found struct {
	Match
	// RawStart and RawEnd delimit, in the raw JSON, the bytes that decode
	// to the secret (escapes included: a secret that spans a \n escape
	// spans it here too).
	RawStart, RawEnd int
	// Key is the name of the object member the string is the value of
	// ("" for an array item or the root).
	Key string
}

// skipKeys are members whose string values are never secrets, though
// some look random: ids and links, hashes, signatures, names of backups.
var skipKeys = map[string]bool{
	"uuid": true, "parentUuid": true, "logicalParentUuid": true, "leafUuid": true,
	"sessionId": true, "id": true, "tool_use_id": true, "requestId": true, "messageId": true,
	"signature": true, "hash": true, "shapeHash": true, "requestDigest": true, "base": true,
	"backupFileName": true, "sourceToolAssistantUUID": true, "sourceToolUseID": true,
	"promptId": true, "agentId": true, "toolUseID": true, "parentToolUseID": true,
	"timestamp": true, "version": true, "type": true, "role": true, "model": true,
	"requestRef": true, "userType": true, "stop_reason": true, "media_type": true,
}

// skipKey reports members never scanned: those above, and every key
// ending in Uuid, UUID or Id naming an entry (they are ids).
func skipKey(k []byte) bool {
	if skipKeys[string(k)] {
		return true
	}
	return bytes.HasSuffix(k, []byte("Uuid")) || bytes.HasSuffix(k, []byte("UUID"))
}

// minSecret is shorter than any match of the rules (the shortest take
// 16 bytes or more): a string this short is not scanned.
const minSecret = 12

// ScanTree calls fn for each secret in the strings of a parsed JSON value,
// each string decoded (escapes undone) and scanned once. Object keys,
// the members skipKey names, the data of base64 blocks (images,
// documents) and the arrays of ledger tails are not scanned. buf is
// scratch space, returned for reuse.
func (s *Scanner) ScanTree(t *jsontree.Tree, buf []byte, memo *Memo, fn func(Found)) []byte {
	return s.scanTree(t, buf, memo, false, fn)
}

// ScanTreeUTF8 is ScanTree for a tree whose input is known to be valid
// UTF-8 (a line utf8.Valid accepted): its strings decode faster.
func (s *Scanner) ScanTreeUTF8(t *jsontree.Tree, buf []byte, memo *Memo, fn func(Found)) []byte {
	return s.scanTree(t, buf, memo, true, fn)
}

func (s *Scanner) scanTree(t *jsontree.Tree, buf []byte, memo *Memo, utf8 bool, fn func(Found)) []byte {
	if len(t.Nodes) == 0 {
		return buf
	}
	w := walker{s: s, t: t, buf: buf, fn: fn, memo: memo, utf8: utf8}
	ws := keyPool.Get().(*walkScratch)
	defer keyPool.Put(ws)
	w.keys, w.short, w.dec = &ws.keys, &ws.short, &ws.dec
	w.node(jsontree.Root, nil, 0)
	return w.buf
}

// Memo remembers the long strings that held no secret, so that the copies
// of one text a file holds (a tool result is also in toolUseResult, in
// progress entries, in ledger blobs) are scanned once. Whether a string
// holds a secret depends on its bytes alone (a value under a credential's
// name, scanned with the name, is neither looked up nor remembered). The
// zero Memo is ready; it is not safe for concurrent use (its Shared is).
type Memo struct {
	clean map[uint64]struct{}
	// Shared, when set, is the set of clean strings the Memos of the
	// files of the store share (the Memo's own map then holds only what a
	// full shard of it refuses): a resumed session's file holds
	// copies of the texts of the files before it (on a 200 MB real-shaped
	// store, 95 of the 127 MB of long strings are copies of one in
	// another file).
	Shared *Clean
}

// Clean is a set of long strings found clean, for Memos to share. It is
// safe for concurrent use; the zero Clean is ready. It is cut in shards,
// each an open-addressed table of hashes read without a lock (every worker
// looks up a hash per long string: a lock, even a read lock, bounced
// between the cores, and a map lookup cost twice a probe); an add takes
// the shard's lock, and a table that grows is replaced whole, so a reader
// of the old one may miss a hash added meanwhile (that string is then
// scanned again), never find one not added.
type Clean struct {
	shards [cleanShards]cleanShard
}

type cleanShard struct {
	// tab is read by every lookup and written only when it grows; the
	// lock and count an add writes sit in the next pair of cache lines,
	// so that an add on one core does not take tab's line from the other.
	tab atomic.Pointer[[]uint64] // 0: an empty slot
	_   [128 - 8]byte
	mu  sync.Mutex
	n   int
	_   [128 - 16]byte
}

const (
	cleanShards = 64
	// maxShared bounds a Clean (maxShared/cleanShards hashes a shard).
	maxShared = 1 << 18
	// cleanFirst is a shard's first table size; a table is at most half
	// full.
	cleanFirst = 16
)

func (c *Clean) shard(h uint64) *cleanShard { return &c.shards[h>>58] }

func (c *Clean) has(h uint64) bool {
	tp := c.shard(h).tab.Load()
	if tp == nil || h == 0 {
		return false
	}
	t := *tp
	mask := uint64(len(t) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch atomic.LoadUint64(&t[i]) {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// add puts h in the set and reports whether the set holds it (false when
// h is 0, or h's shard is full and h not in it).
func (c *Clean) add(h uint64) bool {
	if h == 0 {
		return false
	}
	sh := c.shard(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.n >= maxShared/cleanShards {
		return c.has(h)
	}
	tp := sh.tab.Load()
	if tp == nil || 2*(sh.n+1) > len(*tp) {
		size := cleanFirst
		if tp != nil {
			size = 2 * len(*tp)
		}
		t := make([]uint64, size)
		if tp != nil {
			for _, v := range *tp {
				if v != 0 {
					cleanPut(t, v)
				}
			}
		}
		tp = &t
		sh.tab.Store(tp)
	}
	if cleanPut(*tp, h) {
		sh.n++
	}
	return true
}

// cleanPut stores h in table t (which has an empty slot), reporting
// whether it was not there yet.
func cleanPut(t []uint64, h uint64) bool {
	mask := uint64(len(t) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch atomic.LoadUint64(&t[i]) {
		case h:
			return false
		case 0:
			atomic.StoreUint64(&t[i], h)
			return true
		}
	}
}

// keyClass is what a member's name says of its value.
type keyClass uint8

const (
	keySkip  keyClass = 1 << iota // never scanned (skipKey)
	keyNamed                      // a credential's name (credentialName)
)

// classify reads member name k's class.
func classify(k []byte) keyClass {
	var c keyClass
	if skipKey(k) {
		c |= keySkip
	}
	if credentialName(k) {
		c |= keyNamed
	}
	return c
}

// keyCache remembers the classes of the member names met: Claude Code's
// files repeat a few hundred ("type", "text", "content", ...), 2.5
// million times in a 200 MB store. A name's hash picks a pair of slots; a
// name met is moved to the first, a new one takes it and the other moves
// to the second. A slot holds the name as keyWords reads it: for a name
// of 16 bytes or fewer, that is the whole name, compared as two words.
// The caches are pooled: each lives on from line to line and file to
// file.
type keyCache [1024]keySlot

type keySlot struct {
	a, z  uint64
	n1    int32 // the name's length + 1; 0: an empty slot
	class keyClass
	key   string // the name, when longer than 16 bytes
}

// is reports whether the slot holds name k, whose words are a and z.
func (s *keySlot) is(a, z uint64, k []byte) bool {
	return s.a == a && s.z == z && int(s.n1) == len(k)+1 && (len(k) <= 16 || s.key == string(k))
}

func (kc *keyCache) class(k []byte) keyClass {
	a, z := keyWords(k)
	set := kc[mixWords(a, z, len(k))&1022:][:2]
	if set[0].is(a, z, k) {
		return set[0].class
	}
	if set[1].is(a, z, k) {
		set[0], set[1] = set[1], set[0]
		return set[0].class
	}
	set[1] = set[0]
	set[0] = keySlot{a: a, z: z, n1: int32(len(k) + 1), class: classify(k)}
	if len(k) > 16 {
		set[0].key = string(k)
	}
	return set[0].class
}

// keyWords reads b's first and last 8 bytes (4 for a shorter b; its
// first, middle and last byte for one shorter still): with b's length,
// they are all of b when it is 16 bytes or shorter.
func keyWords(b []byte) (a, z uint64) {
	switch n := len(b); {
	case n >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		return uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16, 0
	}
	return 0, 0
}

func mixWords(a, z uint64, n int) uint32 {
	h := (a ^ bits.RotateLeft64(z*0x9e3779b97f4a7c15, 29) ^ uint64(n)) * 0xff51afd7ed558ccd
	return uint32(h >> 32)
}

// quickHash is a hash of b read from its length and keyWords, without a
// loop over its bytes: it picks the slots of a cache that compares the
// bytes themselves (strings that share the bytes it reads share slots,
// which costs a miss, never a wrong answer).
func quickHash(b []byte) uint32 {
	a, z := keyWords(b)
	return mixWords(a, z, len(b))
}

var keyPool = sync.Pool{New: func() any { return new(walkScratch) }}

// walkScratch is what a walk keeps from line to line: the key classes,
// the short strings found clean, and mayFindIn's scratch space.
type walkScratch struct {
	keys  keyCache
	short shortCache
	dec   []byte
}

// shortCache remembers short strings (under memoFrom bytes) found clean
// by its scanner, by their raw bytes: the Memo's hashes do not pay for
// themselves on short strings, but the same few recur on every line
// (a transcript's cwd, slug, gitBranch, hook names: 343,000 strings of
// 12 to 63 bytes on the 200 MB real-shaped store, 5,791 distinct). Like
// keyCache, a string's quickHash picks a pair of slots; one found moves
// to the first, a new one takes it and the other moves to the second.
// The bytes are compared, so a slot shared by two strings costs a scan,
// never a wrong answer. It is pooled with the walk's scratch and lives on
// from file to file: whether a string holds a secret depends on its
// bytes and the scanner's rules alone.
type shortCache struct {
	owner *Scanner // whose findings the slots hold
	slots [shortSlots]shortSlot
}

type shortSlot struct {
	n uint8
	b [memoFrom - 1]byte
}

const shortSlots = 1024

// has reports whether raw was found clean, and moves it first in its pair.
func (c *shortCache) has(s *Scanner, raw []byte) bool {
	if c.owner != s {
		return false
	}
	set := c.slots[quickHash(raw)&(shortSlots-2):][:2]
	if string(set[0].b[:set[0].n]) == string(raw) {
		return true
	}
	if string(set[1].b[:set[1].n]) == string(raw) {
		set[0], set[1] = set[1], set[0]
		return true
	}
	return false
}

// add records that raw (shorter than memoFrom) is clean.
func (c *shortCache) add(s *Scanner, raw []byte) {
	if c.owner != s {
		*c = shortCache{owner: s}
	}
	set := c.slots[quickHash(raw)&(shortSlots-2):][:2]
	set[1] = set[0]
	set[0].n = uint8(copy(set[0].b[:], raw))
}

// memoFrom is the shortest string a Memo remembers; maxMemo bounds it.
const (
	memoFrom = 64
	maxMemo  = 1 << 16
)

var memoSeed = maphash.MakeSeed()

// maxNamed bounds the values scanned with their member's name.
const maxNamed = 4096

// credentialName reports a member name that says its value is a
// credential: it holds one of the generic rule's words.
func credentialName(k []byte) bool {
	var buf [64]byte
	if len(k) > len(buf) {
		return false
	}
	l := buf[:len(k)]
	for i, c := range k {
		l[i] = lower[c]
	}
	for _, w := range [...]string{"key", "token", "secret", "passw", "auth", "cred", "api", "access"} {
		if bytes.Contains(l, []byte(w)) {
			return true
		}
	}
	return false
}

type walker struct {
	utf8  bool    // the input is valid UTF-8
	dec   *[]byte // mayFindIn's scratch space
	keys  *keyCache
	short *shortCache
	named []byte
	memo  *Memo
	s     *Scanner
	t     *jsontree.Tree
	buf   []byte
	fn    func(Found)
}

// node walks value i; key is its member's name (nil for an array item or
// the root) and class that name's class.
func (w *walker) node(i int, key []byte, class keyClass) {
	t := w.t
	switch t.Nodes[i].Kind {
	case jsontree.String:
		w.str(i, key, class)
	case jsontree.Array:
		if key != nil && (string(key) == "tail") {
			return // ledger hashes
		}
		for c := t.Child(i); c >= 0 && c < t.Next(i); c = t.Next(c) {
			w.node(c, nil, 0)
		}
	case jsontree.Object:
		n := t.Len(i)
		k := t.Child(i)
		for m := 0; m < n; m++ {
			v := k + 1
			// A number, a literal or a string too short for a secret is
			// passed by without reading its name.
			if vn := &t.Nodes[v]; vn.Kind < jsontree.String || vn.Kind == jsontree.String && vn.End-vn.Start < minSecret {
				k = t.Next(v)
				continue
			}
			var kb []byte
			if t.Nodes[k].Esc {
				kb = t.AppendStr(nil, k)
			} else {
				kb = t.RawBytes(k)
			}
			if c := w.keys.class(kb); c&keySkip == 0 && (string(kb) != "data" || !t.StrIs(t.Get(i, "type"), "base64")) {
				w.node(v, kb, c)
			}
			k = t.Next(v)
		}
	}
}

func (w *walker) str(i int, key []byte, class keyClass) {
	t := w.t
	nd := &t.Nodes[i]
	if nd.End-nd.Start < minSecret {
		return // shorter than any secret, even escaped
	}
	raw := t.RawBytes(i)
	named := class&keyNamed != 0
	// The memo holds strings found clean on their own; a value under a
	// credential name is scanned with that name (below), so it is neither
	// looked up nor remembered there.
	var h uint64
	short := w.memo != nil && len(raw) < memoFrom && !named
	if short && w.short.has(w.s, raw) {
		return
	}
	if w.memo != nil && len(raw) >= memoFrom && !named {
		h = maphash.Bytes(memoSeed, raw)
		// The store's set first: it holds most of what the file's does.
		if sh := w.memo.Shared; sh != nil && sh.has(h) {
			return
		}
		if len(w.memo.clean) > 0 {
			if _, ok := w.memo.clean[h]; ok {
				return
			}
		}
	}
	if nd.Esc && !nd.UEsc && !named && !w.s.oneByOne && !w.s.mayFindIn(raw, w.dec) {
		if short {
			w.short.add(w.s, raw)
		}
		w.remember(h)
		return // read from the raw bytes: no secret, no need to decode
	}
	text := raw
	if nd.Esc {
		if w.utf8 {
			w.buf = t.AppendStrUTF8(w.buf[:0], i)
		} else {
			w.buf = t.AppendStr(w.buf[:0], i)
		}
		text = w.buf
	}
	start := int(nd.Start)
	esc := nd.Esc
	found := false
	// A value under a name that says it is a credential ("apiKey",
	// "token", ...) is scanned with its name before it, as it reads in the
	// raw JSON: the "name = value" rules need the name. Only what lies in
	// the value is kept.
	scanned, skip := text, 0
	if named && len(text) <= maxNamed {
		w.named = append(append(append(w.named[:0], key...), `": "`...), text...)
		scanned, skip = w.named, len(key)+4
	}
	var cur RawCursor
	w.s.Scan(scanned, func(m Match) {
		if m.Start < skip {
			return
		}
		m.Start -= skip
		m.End -= skip
		found = true
		f := Found{Match: m, Key: string(key)}
		if esc {
			f.RawStart, f.RawEnd = cur.Span(raw, m.Start, m.End)
		} else {
			f.RawStart, f.RawEnd = m.Start, m.End
		}
		f.RawStart += start
		f.RawEnd += start
		w.fn(f)
	})
	if !found {
		if short {
			w.short.add(w.s, raw)
		}
		w.remember(h)
	}
}

// remember records, when h is not 0, that the string of hash h is clean.
func (w *walker) remember(h uint64) {
	if h == 0 {
		return
	}
	// The store's set, when there is one, is enough; the file's own map
	// takes what a full shard of it refuses.
	if w.memo.Shared != nil && w.memo.Shared.add(h) {
		return
	}
	if w.memo.clean == nil {
		w.memo.clean = map[uint64]struct{}{}
	}
	if len(w.memo.clean) < maxMemo {
		w.memo.clean[h] = struct{}{}
	}
}

// RawSpan maps the decoded byte range [start, end) of a JSON string's
// contents raw (between its quotes) back to the raw bytes that decode to
// it: from the escape or character that gives the decoded byte start to
// the end of the one that gives byte end-1.
func RawSpan(raw []byte, start, end int) (rs, re int) {
	var c RawCursor
	return c.Span(raw, start, end)
}

// RawCursor is RawSpan for many ranges of one string: it remembers where
// the last range started, and a range that starts there or later is
// mapped from that place, not from the string's start (a string with a
// secret every few bytes took time in the square of its length). The zero
// RawCursor is ready; it serves one string.
type RawCursor struct {
	r, dec int // a raw offset and the decoded bytes before it
}

// Span is RawSpan(raw, start, end).
func (c *RawCursor) Span(raw []byte, start, end int) (rs, re int) {
	if c.dec > start || c.r > len(raw) {
		*c = RawCursor{}
	}
	rs, re = -1, len(raw)
	dec := c.dec // decoded bytes so far
	for r := c.r; r < len(raw); {
		n, size := decodedLen(raw, r)
		if rs < 0 && dec+n > start {
			rs = r
			*c = RawCursor{r: r, dec: dec}
		}
		dec += n
		r += size
		if dec >= end {
			re = r
			break
		}
	}
	if rs < 0 {
		rs = len(raw)
	}
	return rs, re
}

// decodedLen returns how many decoded bytes the raw JSON string bytes at
// r give, and how many raw bytes they take (AppendStr's decoding).
func decodedLen(s []byte, r int) (n, size int) {
	c := s[r]
	switch {
	case c == '\\' && r+1 < len(s):
		if s[r+1] != 'u' {
			return 1, 2
		}
		rr := hex4(s[r+2:])
		if rr >= 0xD800 && rr < 0xDC00 && r+12 <= len(s) && s[r+6] == '\\' && s[r+7] == 'u' {
			lo := hex4(s[r+8:])
			if lo >= 0xDC00 && lo < 0xE000 {
				return 4, 12
			}
		}
		if rr < 0 || (rr >= 0xD800 && rr < 0xE000) {
			return utf8.RuneLen(utf8.RuneError), 6
		}
		return utf8.RuneLen(rr), 6
	case c < utf8.RuneSelf:
		return 1, 1
	default:
		rr, size := utf8.DecodeRune(s[r:])
		return utf8.RuneLen(rr), size
	}
}

func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// ScanLine calls fn for each secret in one line of a plain text file (a
// file-history backup, a tool result, a paste): the line is the text,
// RawStart and RawEnd are offsets in it.
func (s *Scanner) ScanLine(line []byte, fn func(Found)) {
	if !s.Candidates(line) {
		return
	}
	s.Scan(line, func(m Match) {
		fn(Found{Match: m, RawStart: m.Start, RawEnd: m.End})
	})
}

// Spans returns the raw byte ranges of the secrets in one line of JSON (or,
// when it does not parse, what ScanBroken finds in it): what a printer masks before it
// shows any part of the line. A line in which the keyword pass finds no
// place is not parsed, unless it holds a \u escape: one may spell a
// keyword's byte, or one of the bytes the pass reads after a short
// keyword ("SK\u0030…" decodes to "SK0…", a place of "sk" the raw line
// lacks). A short escape gives no byte a keyword holds or its follow
// takes (a quote, a backslash, a slash, a control byte), so without a \u
// escape every place in a decoded string is one in the raw line too.
func (s *Scanner) Spans(line []byte) [][2]int {
	if !bytes.Contains(line, []byte(`\u`)) && !s.Candidates(line) {
		return nil
	}
	var out [][2]int
	var t jsontree.Tree
	if err := t.Parse(line); err == nil {
		s.ScanTree(&t, nil, nil, func(f Found) { out = append(out, [2]int{f.RawStart, f.RawEnd}) })
		return out
	}
	s.ScanBroken(line, func(f Found) { out = append(out, [2]int{f.RawStart, f.RawEnd}) })
	return out
}

// ScanBroken calls fn for each secret in one line of JSON Lines that does
// not parse (a torn last line, two entries glued by an interrupted
// append, a bad escape). The line is read as one string body: every JSON
// escape in it is undone, so that a value written in a string as
// `KEY=\"…\"`, or a key spanning `\n` escapes, is found (and
// fingerprinted) as in a line that parses; RawStart and RawEnd are offsets
// in line. A secret that only the raw bytes show (found by ScanLine over
// bytes no decoded match covers) is reported too.
func (s *Scanner) ScanBroken(line []byte, fn func(Found)) {
	if bytes.IndexByte(line, '\\') < 0 {
		s.ScanLine(line, fn)
		return
	}
	// dec is line with its escapes undone; escs says where each escape
	// was (only they are kept, not an offset per byte: a torn line may be
	// hundreds of MB).
	type escape struct{ dec, raw, dlen, rlen int32 }
	dec := make([]byte, 0, len(line))
	var escs []escape
	for r := 0; r < len(line); {
		c := line[r]
		if c == '\\' && r+1 < len(line) {
			n := len(dec)
			size := 2
			if line[r+1] != 'u' {
				dec = append(dec, jsontree.Unescape(line[r+1]))
			} else if rr := hex4(line[r+2:]); rr >= 0 {
				size = 6
				if rr >= 0xD800 && rr < 0xDC00 && r+12 <= len(line) && line[r+6] == '\\' && line[r+7] == 'u' {
					if lo := hex4(line[r+8:]); lo >= 0xDC00 && lo < 0xE000 {
						rr, size = 0x10000+(rr-0xD800)<<10+(lo-0xDC00), 12
					}
				}
				dec = utf8.AppendRune(dec, rr)
			} else {
				dec = append(dec, c)
				r++
				continue
			}
			escs = append(escs, escape{int32(n), int32(r), int32(len(dec) - n), int32(size)})
			r += size
			continue
		}
		dec = append(dec, c)
		r++
	}
	// raw maps an offset in dec to one in line: a start inside an
	// escape's bytes to the escape's first byte, an end to its last.
	raw := func(d int, end bool) int {
		k := sort.Search(len(escs), func(k int) bool {
			if end {
				return int(escs[k].dec) >= d
			}
			return int(escs[k].dec) > d
		}) - 1
		if k < 0 {
			return d
		}
		e := escs[k]
		after := int(e.dec + e.dlen)
		if d < after || end && d == after {
			if end {
				return int(e.raw + e.rlen)
			}
			return int(e.raw)
		}
		return int(e.raw+e.rlen) + d - after
	}
	var covered [][2]int
	s.ScanLine(dec, func(f Found) {
		f.RawStart, f.RawEnd = raw(f.Start, false), raw(f.End, true)
		covered = append(covered, [2]int{f.RawStart, f.RawEnd})
		fn(f)
	})
	s.ScanLine(line, func(f Found) {
		for _, c := range covered {
			if f.RawStart < c[1] && c[0] < f.RawEnd {
				return
			}
		}
		fn(f)
	})
}
