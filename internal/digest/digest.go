// Package digest keeps, per transcript, the ids that project checks look up once its full records are gone.
package digest

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unsafe"

	"github.com/ccvet/ccvet/internal/entry"
)

// Digest is what other files of a project look up in one transcript: its
// uuids (canonical ones as 16-byte keys), its tool_use ids with the uuid of
// the entry holding each, and, when asked for, the line, offset and uuid of
// each record. It holds no record and no map of strings.
type Digest struct {
	keys  []key    // distinct canonical uuids, sorted
	odd   []string // distinct uuids that are not canonical, sorted
	last  []int32  // by uuid index: the last record with that uuid (until Compact)
	tools []tool   // tool_use ids, sorted by id then owner
	calls []uint64 // by uuid index, a bit set: an entry with that uuid holds a tool_use
	arena string   // the tool ids, one after the other
	lines []line   // one per record, in file order (only when Build was asked for them)
}

// A uuid index is i for keys[i] and len(keys)+j for odd[j]; -1 is none.

// key is a uuid in the written form (8-4-4-4-12 lowercase hex digits)
// decoded: its entry.ID.
type key = entry.ID

type tool struct {
	off, n uint32 // id is arena[off:off+n]
	owner  int32  // uuid index of the entry holding the tool_use, -1 if it has none
}

type line struct {
	num    int32
	uuid   int32 // uuid index, -1 if none
	offset int64
}

// Build digests the records of one transcript, in file order. With lines,
// the digest also answers RecordAt.
func Build(recs []*entry.Record, lines bool) *Digest { return BuildOn(recs, lines, 1) }

// parallelFrom is the number of records from which BuildOn uses more than
// one goroutine.
var parallelFrom = 1 << 16

// BuildOn is Build on up to jobs goroutines (this one and others): a long
// transcript's digest is built once its file rules are done, when nothing
// else of it runs. The digest is the same whatever jobs is.
func BuildOn(recs []*entry.Record, lines bool, jobs int) *Digest {
	d := &Digest{}
	type at struct {
		k   key
		rec int32
	}
	type oddAt struct {
		s   string
		rec int32
	}
	canon := make([]at, 0, len(recs))
	var odd []oddAt
	for i, r := range recs {
		switch id := r.ID(); {
		case id.IsZero():
		case r.RawUUID():
			odd = append(odd, oddAt{r.UUID(), int32(i)})
		default:
			canon = append(canon, at{id, int32(i)})
		}
	}
	// The tool_use blocks are listed beside the sort below, each with
	// its record's index as owner until the uuid indexes are known.
	var toolsDone chan struct{}
	var arena []byte
	listTools := func() {
		nt, nb := 0, 0
		for _, r := range recs {
			for _, t := range r.ToolUses() {
				nt, nb = nt+1, nb+len(t.ID)
			}
		}
		if nt == 0 {
			return
		}
		d.tools = make([]tool, 0, nt)
		arena = make([]byte, 0, nb)
		for i, r := range recs {
			for _, t := range r.ToolUses() {
				d.tools = append(d.tools, tool{off: uint32(len(arena)), n: uint32(len(t.ID)), owner: int32(i)})
				arena = append(arena, t.ID...)
			}
		}
	}
	parallel := jobs > 1 && len(recs) >= parallelFrom
	if parallel {
		toolsDone = make(chan struct{})
		go func() {
			defer close(toolsDone)
			listTools()
		}()
	} else {
		listTools()
	}
	// Canonical uuids are random: their first bits spread them over
	// buckets of a few each.
	shift := keyShift(len(canon))
	buckets := 1 << (64 - shift)
	cmpAt := func(a, b at) int {
		if c := cmpKey(a.k, b.k); c != 0 {
			return c
		}
		return cmp.Compare(a.rec, b.rec)
	}
	if parallel {
		// The keys below the middle bucket first, the others after (one
		// pass, swapping from both ends), then each half sorted on a
		// goroutine of its own.
		half := buckets / 2
		below := func(a at) bool { return int(a.k.Hi>>shift) < half }
		i, j := 0, len(canon)-1
		for {
			for i <= j && below(canon[i]) {
				i++
			}
			for i <= j && !below(canon[j]) {
				j--
			}
			if i >= j {
				break
			}
			canon[i], canon[j] = canon[j], canon[i]
		}
		lo, hi := canon[:i], canon[i:]
		done := make(chan struct{})
		go func() {
			defer close(done)
			bucketSort(hi, buckets-half, func(a at) int { return int(a.k.Hi>>shift) - half }, cmpAt, buildCopyMax)
		}()
		bucketSort(lo, half, func(a at) int { return int(a.k.Hi >> shift) }, cmpAt, buildCopyMax)
		<-done
	} else {
		bucketSort(canon, buckets, func(a at) int { return int(a.k.Hi >> shift) }, cmpAt, buildCopyMax)
	}
	slices.SortFunc(odd, func(a, b oddAt) int {
		if c := strings.Compare(a.s, b.s); c != 0 {
			return c
		}
		return cmp.Compare(a.rec, b.rec)
	})
	idx := make([]int32, len(recs)) // record -> uuid index
	for i := range idx {
		idx[i] = -1
	}
	n := 0
	for i, a := range canon {
		if i == 0 || a.k != canon[i-1].k {
			n++
		}
	}
	d.keys, d.last = make([]key, 0, n), make([]int32, 0, n+len(odd))
	for i, a := range canon {
		if i == 0 || a.k != canon[i-1].k {
			d.keys = append(d.keys, a.k)
			d.last = append(d.last, a.rec)
		}
		d.last[len(d.last)-1] = a.rec
		idx[a.rec] = int32(len(d.keys) - 1)
	}
	var oddLast []int32
	for i, o := range odd {
		if i == 0 || o.s != odd[i-1].s {
			d.odd = append(d.odd, o.s)
			oddLast = append(oddLast, o.rec)
		}
		oddLast[len(oddLast)-1] = o.rec
		idx[o.rec] = int32(len(d.keys) + len(d.odd) - 1)
	}
	d.last = append(d.last, oddLast...)
	if toolsDone != nil {
		<-toolsDone
	}
	for k := range d.tools {
		t := &d.tools[k]
		t.owner = idx[t.owner] // the record's index until now
		if u := t.owner; u >= 0 {
			if d.calls == nil {
				d.calls = make([]uint64, (len(d.keys)+len(d.odd)+63)/64)
			}
			d.calls[u/64] |= 1 << (u % 64)
		}
	}
	if len(arena) > 0 {
		d.arena = unsafe.String(&arena[0], len(arena)) // never written again: no copy of 30 bytes a tool
	}
	d.sortTools(buildCopyMax)
	if lines {
		d.lines = make([]line, len(recs))
		for i, r := range recs {
			d.lines[i] = line{num: int32(r.Line), uuid: idx[i], offset: r.Offset}
		}
	}
	return d
}

// buildCopyMax is the most elements Build's sorts copy (see bucketSort): a
// digest is built when its file's records are all held, the peak of a
// long transcript's memory, and its largest sort then swaps in place
// rather than hold a second copy (4 MB for 180,000 entries).
const buildCopyMax = 1 << 16

// sortTools sorts d.tools by id, then owner, copying at most copyMax
// elements (see bucketSort).
func (d *Digest) sortTools(copyMax int) {
	// Tool ids share a prefix ("toolu_01"), then are random: the byte
	// (two bytes, for many ids) after what they all share spread them over buckets (a byte
	// past an id's end counts as 0, a byte b as b+1: the buckets are in
	// the ids' order).
	pre := 0
	if len(d.tools) > 0 {
		first := d.id(d.tools[0])
		pre = len(first)
		for _, t := range d.tools[1:] {
			id := d.id(t)
			n := 0
			for n < pre && n < len(id) && id[n] == first[n] {
				n++
			}
			pre = n
		}
	}
	byteAt := func(id string, i int) int {
		if i < len(id) {
			return int(id[i]) + 1
		}
		return 0
	}
	n, bucket := 257, func(t tool) int { return byteAt(d.id(t), pre) }
	if len(d.tools) >= 1<<14 {
		n, bucket = 257*257, func(t tool) int {
			id := d.id(t)
			return byteAt(id, pre)*257 + byteAt(id, pre+1)
		}
	}
	bucketSort(d.tools, n, bucket, func(a, b tool) int {
		if c := strings.Compare(d.id(a), d.id(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.owner, b.owner)
	}, copyMax)
}

// keyShift is how far to shift a key's hi word right to bucket n random
// keys, two to four to a bucket: at most 1<<16 buckets, which a small
// digest would spend more time clearing than sorting.
func keyShift(n int) uint {
	return 64 - uint(min(max(bits.Len(uint(n/4)), 1), 16))
}

// bucketSort sorts s by cmp (a total order, but for elements that are
// alike) when bucket, in [0, n), is monotone in that order: one counting
// pass, the elements moved to their buckets (scattered into a copy when s
// has at most copyMax elements, else swapped in place, slower but without
// a second s), then each bucket sorted. Where bucket spreads the elements,
// it is linear; at worst it is one sort.
func bucketSort[T any](s []T, n int, bucket func(T) int, cmp func(a, b T) int, copyMax int) {
	if len(s) < 1024 {
		slices.SortFunc(s, cmp)
		return
	}
	start := make([]int32, n+1)
	for _, x := range s {
		start[bucket(x)+1]++
	}
	for b := 1; b <= n; b++ {
		start[b] += start[b-1]
	}
	next := slices.Clone(start[:n])
	if len(s) <= copyMax {
		// Scatter into a copy and back: reads in order, writes to the
		// buckets' heads (swapping in place reads and writes at random).
		out := make([]T, len(s))
		for _, x := range s {
			b := bucket(x)
			out[next[b]] = x
			next[b]++
		}
		copy(s, out)
	} else {
		for b := range n {
			for next[b] < start[b+1] {
				// Swap what is at the head of bucket b to where it goes,
				// until what comes back belongs here.
				x := s[next[b]]
				t := bucket(x)
				if t == b {
					next[b]++
					continue
				}
				s[next[b]], s[next[t]] = s[next[t]], x
				next[t]++
			}
		}
	}
	for b := range n {
		if lo, hi := start[b], start[b+1]; hi-lo > 1 {
			part := s[lo:hi]
			if len(part) <= 8 {
				for i := 1; i < len(part); i++ {
					for j := i; j > 0 && cmp(part[j], part[j-1]) < 0; j-- {
						part[j], part[j-1] = part[j-1], part[j]
					}
				}
				continue
			}
			slices.SortFunc(part, cmp)
		}
	}
}

// Compact drops what only the checks at the file's close need (Last).
func (d *Digest) Compact() { d.last = nil }

func (d *Digest) id(t tool) string { return d.arena[t.off : t.off+t.n] }

// index is the uuid index of s, or -1.
func (d *Digest) index(s string) int {
	if d == nil {
		return -1
	}
	if k, ok := parse(s); ok {
		return d.keyIndex(k)
	}
	if i, found := slices.BinarySearch(d.odd, s); found {
		return len(d.keys) + i
	}
	return -1
}

// LastSource is Last(r.SourceToolAssistantUUID()), without making the
// string when it is a uuid in the written form.
func (d *Digest) LastSource(r *entry.Record) int {
	if d == nil {
		return -1
	}
	if id, ok := r.WrittenSource(); ok {
		i := d.keyIndex(id)
		if i < 0 || i >= len(d.last) {
			return -1
		}
		return int(d.last[i])
	}
	if s := r.SourceToolAssistantUUID(); s != "" {
		return d.Last(s)
	}
	return -1
}

// HasParentOf is HasUUID(r.ParentUUID()), without making the string.
func (d *Digest) HasParentOf(r *entry.Record) bool {
	if d == nil || r.ParentID().IsZero() {
		return false
	}
	if r.RawParent() {
		return d.HasUUID(r.ParentUUID())
	}
	return d.keyIndex(r.ParentID()) >= 0
}

// keyIndex is the uuid index of k, or -1.
func (d *Digest) keyIndex(k key) int {
	if i, found := slices.BinarySearchFunc(d.keys, k, cmpKey); found {
		return i
	}
	return -1
}

// uuid is the uuid of index i.
func (d *Digest) uuid(i int32) string {
	if i < 0 {
		return ""
	}
	if int(i) >= len(d.keys) {
		return d.odd[int(i)-len(d.keys)]
	}
	return format(d.keys[i])
}

// A nil Digest holds nothing.

// HasUUID reports whether an entry of the file has uuid s.
func (d *Digest) HasUUID(s string) bool { return d.index(s) >= 0 }

// Last is the index (in the records Build was given) of the last record
// with uuid s, or -1. It answers only until Compact.
func (d *Digest) Last(s string) int {
	i := d.index(s)
	if i < 0 || i >= len(d.last) {
		return -1
	}
	return int(d.last[i])
}

// HasTool reports whether an entry of the file holds a tool_use with id.
func (d *Digest) HasTool(id string) bool {
	_, found := d.findTool(id)
	return found
}

func (d *Digest) findTool(id string) (int, bool) {
	if d == nil {
		return 0, false
	}
	return slices.BinarySearchFunc(d.tools, id, func(t tool, id string) int { return strings.Compare(d.id(t), id) })
}

// Holds reports whether an entry of the file with uuid s holds a tool_use
// with one of ids.
func (d *Digest) Holds(s string, ids []string) bool {
	u := d.index(s)
	if u < 0 || d.calls == nil || d.calls[u/64]&(1<<(u%64)) == 0 {
		return false // no entry with that uuid holds a tool_use
	}
	for _, id := range ids {
		i, _ := d.findTool(id)
		for ; i < len(d.tools) && d.id(d.tools[i]) == id; i++ {
			if int(d.tools[i].owner) == u {
				return true
			}
		}
	}
	return false
}

// RecordAt is a record giving the line number n, its offset and uuid (what
// a finding on that line needs), or nil when no record is on that line or
// Build was not asked for lines.
func (d *Digest) RecordAt(n int) *entry.Record {
	if d == nil {
		return nil
	}
	i, found := slices.BinarySearchFunc(d.lines, n, func(l line, n int) int { return cmp.Compare(int(l.num), n) })
	if !found {
		return nil
	}
	l := d.lines[i]
	r := entry.Ref(int(l.num), l.offset)
	r.SetUUID(d.uuid(l.uuid))
	return r
}

// HasLines reports whether Build was asked for lines.
func (d *Digest) HasLines() bool { return d != nil && d.lines != nil }

// cmpKey orders keys as their strings.
func cmpKey(a, b key) int { return a.Compare(b) }

// parse decodes a uuid in the written form (see entry.ID): only those,
// so that a key gives back the very string it came from.
func parse(s string) (key, bool) { return entry.ParseWritten(s) }

// format is the written form of k.
func format(k key) string { return k.String() }

// Union is one digest of the uuids and tool ids of ds, for many lookups
// across files: it answers HasUUID and HasTool only.
func Union(ds []*Digest) *Digest {
	u := &Digest{}
	nk, nt, nb := 0, 0, 0
	for _, d := range ds {
		if d != nil {
			nk, nt, nb = nk+len(d.keys), nt+len(d.tools), nb+len(d.arena)
		}
	}
	u.keys = make([]key, 0, nk)
	u.tools = make([]tool, 0, nt)
	arena := make([]byte, 0, nb)
	for _, d := range ds {
		if d == nil {
			continue
		}
		u.keys = append(u.keys, d.keys...)
		u.odd = append(u.odd, d.odd...)
		for _, t := range d.tools {
			u.tools = append(u.tools, tool{off: uint32(len(arena)), n: t.n, owner: -1})
			arena = append(arena, d.id(t)...)
		}
	}
	u.arena = string(arena)
	shift := keyShift(len(u.keys))
	// A union is made at a project's check, once its files hold only
	// their digests: its sorts copy.
	bucketSort(u.keys, 1<<(64-shift), func(k key) int { return int(k.Hi >> shift) }, cmpKey, math.MaxInt)
	u.keys = slices.Compact(u.keys)
	slices.Sort(u.odd)
	u.odd = slices.Compact(u.odd)
	u.sortTools(math.MaxInt)
	u.tools = slices.CompactFunc(u.tools, func(a, b tool) bool { return u.id(a) == u.id(b) })
	return u
}
