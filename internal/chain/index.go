package chain

import (
	"math/bits"
	"math/rand/v2"

	"github.com/ccvet/ccvet/internal/entry"
)

// uuidIndex finds where a uuid is among one file's records (uuidAt): an
// open-addressed table of slots that hold record indexes only, no key. A
// probe compares the ID of the slot's first record (recs must not change
// while the index is used), so a table costs 12 bytes a slot (about 17
// per record) where a Go map with string keys costs about 45.
type uuidIndex struct {
	recs   []*entry.Record
	slots  []uuidAt // first+1 in the first field: 0 is an empty slot
	s0, s1 uint64   // the hash's seeds: a file cannot aim its uuids at one slot
}

// newUUIDIndex makes an empty index for at most n uuids of recs.
func newUUIDIndex(recs []*entry.Record, n int) *uuidIndex {
	size := n + n/3 + 8 // at most 3/4 full
	return &uuidIndex{recs: recs, slots: make([]uuidAt, size), s0: rand.Uint64(), s1: rand.Uint64()}
}

// slot returns the slot of id, which holds it or, when found is false, is
// the empty slot where it goes.
func (x *uuidIndex) slot(id entry.ID) (s *uuidAt, found bool) {
	// The hash's high bits pick the first slot (no power-of-two size
	// needed); probing goes on linearly, wrapping at the end.
	hi, lo := bits.Mul64(id.Hi^x.s0, id.Lo^x.s1)
	k, _ := bits.Mul64(hi^lo, uint64(len(x.slots)))
	for {
		s = &x.slots[k]
		if s.first == 0 {
			return s, false
		}
		if x.recs[s.first-1].ID() == id {
			return s, true
		}
		if k++; k == uint64(len(x.slots)) {
			k = 0
		}
	}
}

// get returns where id is, and whether the index holds it.
func (x *uuidIndex) get(id entry.ID) (uuidAt, bool) {
	if x == nil || id.IsZero() {
		return uuidAt{}, false
	}
	s, ok := x.slot(id)
	if !ok {
		return uuidAt{}, false
	}
	a := *s
	a.first--
	return a, true
}

// add returns the slot of record i's uuid (not zero), new when no earlier
// record had it (first i, last i, msg -1), and whether one had. Its first
// field holds first+1: change last and msg only.
func (x *uuidIndex) add(i int) (s *uuidAt, seen bool) {
	s, seen = x.slot(x.recs[i].ID())
	if !seen {
		*s = uuidAt{first: int32(i) + 1, last: int32(i), msg: -1}
	}
	return s, seen
}
