package entry

import (
	"hash/maphash"
	"math/bits"
)

// ID is an entry's uuid in 16 bytes, the form a record keeps it in: the
// 128 bits of a uuid written as Claude Code writes them (36 characters,
// lowercase hex in groups of 8-4-4-4-12, a version digit other than 0),
// else a hash of the string, keyed for the process (so that a file cannot
// be made to hold two strings of one hash), whose version digit is 0 (so
// that no string's hash is a written uuid's bits). Two strings have equal
// IDs when they are equal (and, for two other strings that are not written
// uuids, with the odds of a 124-bit hash collision). IDs of uuids in the
// written form sort as their strings do. The zero ID is no uuid.
type ID struct{ Hi, Lo uint64 }

// IsZero reports whether id is the zero ID (no uuid).
func (id ID) IsZero() bool { return id == ID{} }

// ParseID returns the ID of s and whether s is a uuid in the written form
// (then String gives s back). "" gives the zero ID.
func ParseID(s string) (ID, bool) {
	if id, ok := parseCanonical(s); ok {
		return id, true
	}
	return hashID(s), false
}

// ParseWritten is the ID of s when s is a uuid in the written form (and
// false, no hash made, when it is not).
func ParseWritten(s string) (ID, bool) { return parseCanonical(s) }

// IDOfBytes is ParseID for bytes, without making the string.
func IDOfBytes(b []byte) (ID, bool) {
	if id, ok := parseCanonical(b); ok {
		return id, true
	}
	if len(b) == 0 {
		return ID{}, false
	}
	return hashed(maphash.Bytes(hashSeeds[0], b), maphash.Bytes(hashSeeds[1], b)), false
}

const uuidLen = 36

// versionBits is where a uuid's version digit (its 13th) is in ID.Hi.
const versionBits = 0xf << 12

// parseCanonical decodes a uuid in the written form: 36 bytes, dashes at
// 8, 13, 18 and 23, lowercase hex digits elsewhere, a version digit other
// than 0 (Claude Code writes version 4). Only those, so that an ID gives
// back the very string it came from, and none is a hash's.
func parseCanonical[S string | []byte](s S) (ID, bool) {
	if len(s) != uuidLen || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return ID{}, false
	}
	// Eight digits at a time: the first eight, the 4+4 of the second and
	// third groups, the 4+4 of the fourth and the fifth's first four, the
	// fifth's last eight.
	w0 := le64(s, 0)
	w1 := le64(s, 9)&0xffffffff | le64(s, 14)<<32
	w2 := le64(s, 19)&0xffffffff | le64(s, 24)<<32
	w3 := le64(s, 28)
	d0, ok0 := hex8(w0)
	d1, ok1 := hex8(w1)
	d2, ok2 := hex8(w2)
	d3, ok3 := hex8(w3)
	id := ID{d0<<32 | d1, d2<<32 | d3}
	return id, ok0 && ok1 && ok2 && ok3 && id.Hi&versionBits != 0
}

// le64 is the eight bytes of s at i, the first one lowest.
func le64[S string | []byte](s S, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// hex8 decodes eight lowercase hex digits packed in w (the first one in
// its lowest byte), all at once; false when one is not such a digit.
func hex8(w uint64) (uint64, bool) {
	const ones, highs, lows = 0x0101010101010101, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	// The high bit of each byte (under 0x80) strictly between m and n:
	// (ones*(127+n) - x) & ^w & (x + ones*(127-m)) & highs.
	x := w & lows
	digit := (ones*(127+'9'+1) - x) & ^w & (x + ones*(127-'0'+1)) & highs
	letter := (ones*(127+'f'+1) - x) & ^w & (x + ones*(127-'a'+1)) & highs
	if w&highs != 0 || digit|letter != highs {
		return 0, false
	}
	v := w&0x0f0f0f0f0f0f0f0f + (letter>>7)*9 // each byte its digit's value
	v = (v<<4 | v>>8) & 0x00ff00ff00ff00ff    // pairs of digits: bytes
	v = (v | v>>8) & 0x0000ffff0000ffff
	v = (v | v>>16) & 0xffffffff // the four bytes, the first one lowest
	return uint64(bits.ReverseBytes32(uint32(v))), true
}

// hashSeeds key hashID for the process.
var hashSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func hashID(s string) ID {
	if s == "" {
		return ID{}
	}
	return hashed(maphash.String(hashSeeds[0], s), maphash.String(hashSeeds[1], s))
}

// hashed is the ID of a string whose two keyed hashes are hi and lo: its
// version digit 0 (no written uuid's), never the zero ID.
func hashed(hi, lo uint64) ID {
	id := ID{hi &^ versionBits, lo}
	if id.IsZero() {
		id.Lo = 1
	}
	return id
}

// String is the written form of an ID that ParseID read from one
// (anything else gives a string of its bits in that form; the zero ID "").
func (id ID) String() string {
	if id.IsZero() {
		return ""
	}
	var b [uuidLen]byte
	id.put(&b)
	return string(b[:])
}

// AppendText appends the written form of id (see String) to b.
func (id ID) AppendText(b []byte) []byte {
	var t [uuidLen]byte
	id.put(&t)
	return append(b, t[:]...)
}

func (id ID) put(b *[uuidLen]byte) {
	const hex = "0123456789abcdef"
	v := [2]uint64{id.Hi, id.Lo}
	n := 31
	for i := uuidLen - 1; i >= 0; i-- {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			b[i] = '-'
			continue
		}
		b[i] = hex[v[n/16]&0xf]
		v[n/16] >>= 4
		n--
	}
}

// Compare orders IDs by their bits (as the written forms sort).
func (id ID) Compare(o ID) int {
	switch {
	case id.Hi != o.Hi:
		if id.Hi < o.Hi {
			return -1
		}
		return 1
	case id.Lo != o.Lo:
		if id.Lo < o.Lo {
			return -1
		}
		return 1
	}
	return 0
}
