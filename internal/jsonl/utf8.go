package jsonl

import "unicode/utf8"

// validUTF8 is utf8.Valid, 32 bytes at a time where the CPU allows: real
// lines hold a multi-byte character every few dozen bytes, where
// utf8.Valid goes one byte at a time.
func validUTF8(b []byte) bool {
	if !wideUTF8 || len(b) < 64 {
		return utf8.Valid(b)
	}
	n := len(b) &^ 31
	if !validBlocks(b[:n]) {
		return false
	}
	// The blocks' last sequence may run past them: check from its lead
	// byte (at most three continuation bytes back) to the end.
	i := n
	for k := 0; k < 3 && i > 0 && b[i-1]&0xC0 == 0x80; k++ {
		i--
	}
	if i > 0 && b[i-1] >= 0xC0 {
		i--
	}
	return utf8.Valid(b[i:])
}
