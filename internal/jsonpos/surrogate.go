package jsonpos

// LoneSurrogate returns the byte offset of the first \uXXXX escape inside a
// JSON string of line that encodes a UTF-16 surrogate without its pair, or
// -1. Go's decoder turns such escapes into U+FFFD silently; the API rejects
// them (anthropics/claude-code issue 45982).
func LoneSurrogate(line []byte) int { return loneSurrogate(line, 0, false) }

// NextLoneSurrogate is LoneSurrogate from offset from of line, which lies
// inside a string (just after an escape LoneSurrogate returned, once that
// escape is replaced by one of the same length): a caller replacing every
// lone escape scans the line once instead of once per escape.
func NextLoneSurrogate(line []byte, from int) int { return loneSurrogate(line, from, true) }

func loneSurrogate(line []byte, from int, inStr bool) int {
	for i := from; i < len(line); i++ {
		c := line[i]
		if !inStr {
			if c == '"' {
				inStr = true
			}
			continue
		}
		switch c {
		case '"':
			inStr = false
		case '\\':
			if i+1 >= len(line) {
				return -1
			}
			if line[i+1] != 'u' {
				i++
				continue
			}
			u, ok := hex4(line, i+2)
			if !ok {
				i++
				continue
			}
			switch {
			case u >= 0xD800 && u <= 0xDBFF:
				if i+7 < len(line) && line[i+6] == '\\' && line[i+7] == 'u' {
					if lo, ok := hex4(line, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
						i += 11
						continue
					}
				}
				return i
			case u >= 0xDC00 && u <= 0xDFFF:
				return i
			}
			i += 5
		}
	}
	return -1
}

// EscapedNUL returns the byte offset of the first \u0000 escape in line, or -1.
func EscapedNUL(line []byte) int {
	for i := 0; i+5 < len(line); i++ {
		if line[i] != '\\' {
			continue
		}
		if line[i+1] == 'u' && line[i+2] == '0' && line[i+3] == '0' && line[i+4] == '0' && line[i+5] == '0' {
			return i
		}
		i++ // skip the escaped character
	}
	return -1
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	return r, true
}
