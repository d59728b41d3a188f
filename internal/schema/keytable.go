package schema

import (
	"encoding/binary"
	"slices"
)

// keyTable finds the keyInfo of an object key among the keys a schema
// names (properties and required) without hashing the whole key: a
// perfect hash over the key's length and four of its bytes picks the one
// slot the key can be in, and one comparison decides. A schema whose keys
// no seed separates keeps the map.
type keyTable struct {
	slots []keySlot
	shift uint32
	seed  uint64
	m     map[string]keyInfo // fallback when slots is nil
	// id numbers the tables of a Validator that object walks (from 1; 0:
	// none), for the slots a checker predicts (checker.predictions).
	id int32
}

type keySlot struct {
	name   string
	lo, hi uint64 // keyWords(name)
	info   keyInfo
	used   bool
}

// is reports whether key is the slot's name: by length and the words of
// keyWords, which settle a key of up to 16 bytes without a call.
func (s *keySlot) is(key []byte) bool {
	if len(key) != len(s.name) {
		return false
	}
	lo, hi := keyWords(key)
	return lo == s.lo && hi == s.hi && (len(key) <= 16 || s.name == string(key))
}

// keyWords packs the bytes of key into two words: all of them for a key of
// up to 16 bytes (the first and last eight, which overlap below 16; the
// first and last four below 8; three bytes, which are all, below 4). Keys
// of one length are equal exactly when their words are, up to 16 bytes.
func keyWords(key []byte) (lo, hi uint64) {
	n := len(key)
	switch {
	case n >= 8:
		return binary.LittleEndian.Uint64(key), binary.LittleEndian.Uint64(key[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(key)) | uint64(binary.LittleEndian.Uint32(key[n-4:]))<<32, 0
	case n > 0:
		return uint64(key[0]) | uint64(key[n/2])<<8 | uint64(key[n-1])<<16, 0
	}
	return 0, 0
}

// keyFeatures packs the bytes of key the perfect hash reads.
func keyFeatures[K string | []byte](key K) uint64 {
	n := len(key)
	if n == 0 {
		return 0
	}
	return uint64(n) | uint64(key[0])<<8 | uint64(key[n/4])<<16 | uint64(key[n/2])<<24 | uint64(key[n-1])<<32
}

func (kt *keyTable) slot(key []byte) uint32 { return kt.slotOf(keyFeatures(key)) }

// slotOf is slot for a key whose features are f.
func (kt *keyTable) slotOf(f uint64) uint32 {
	h := f * kt.seed
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	return uint32(h>>32) >> kt.shift
}

// newKeyTable builds the table for keys; it is deterministic (the seeds are
// tried in a fixed order, and whether one separates the keys does not
// depend on the order they are placed in).
func newKeyTable(keys map[string]keyInfo) keyTable {
	if len(keys) == 0 {
		return keyTable{}
	}
	bits := uint32(1)
	for 1<<bits < 2*len(keys) {
		bits++
	}
	feats := make([]uint64, 0, len(keys))
	for name := range keys {
		feats = append(feats, keyFeatures(name))
	}
	slices.Sort(feats)
	for i := 1; i < len(feats); i++ {
		if feats[i] == feats[i-1] {
			return keyTable{m: keys} // no seed separates these two
		}
	}
	var used []uint64 // bit set of the slots taken under the seed tried
	seed := uint64(0x9e3779b97f4a7c15)
	for grow := 0; grow < 3; grow++ {
		kt := keyTable{shift: 32 - bits}
		used = make([]uint64, (1<<bits+63)/64)
		for try := 0; try < 2000; try++ {
			seed = seed*6364136223846793005 + 1442695040888963407 | 1
			kt.seed = seed
			clear(used)
			ok := true
			for _, f := range feats {
				sl := kt.slotOf(f)
				if used[sl/64]&(1<<(sl%64)) != 0 {
					ok = false
					break
				}
				used[sl/64] |= 1 << (sl % 64)
			}
			if ok {
				kt.slots = make([]keySlot, 1<<bits)
				for name, ki := range keys {
					lo, hi := keyWords([]byte(name))
					kt.slots[kt.slot([]byte(name))] = keySlot{name: name, lo: lo, hi: hi, info: ki, used: true}
				}
				return kt
			}
		}
		bits++
	}
	return keyTable{m: keys}
}

// getSlot is get that also returns the slot of a key found, or -1 when
// the table is a map.
func (kt *keyTable) getSlot(key []byte) (keyInfo, int, bool) {
	if kt.slots == nil {
		ki, ok := kt.get(key)
		return ki, -1, ok
	}
	sl := kt.slot(key)
	if s := &kt.slots[sl]; s.used && s.is(key) {
		return s.info, int(sl), true
	}
	return keyInfo{}, -1, false
}

// getStr is get for a string key.
func (kt *keyTable) getStr(key string) (keyInfo, bool) {
	if kt.slots == nil {
		ki, ok := kt.m[key]
		return ki, ok
	}
	sl := &kt.slots[kt.slotOf(keyFeatures(key))]
	if sl.used && sl.name == key {
		return sl.info, true
	}
	return keyInfo{}, false
}

// get returns the keyInfo of key, and whether the schema names it.
func (kt *keyTable) get(key []byte) (keyInfo, bool) {
	if kt.slots == nil {
		if kt.m == nil {
			return keyInfo{}, false
		}
		ki, ok := kt.m[string(key)]
		return ki, ok
	}
	sl := &kt.slots[kt.slot(key)]
	if sl.used && sl.name == string(key) {
		return sl.info, true
	}
	return keyInfo{}, false
}
