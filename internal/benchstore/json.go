package benchstore

import "strconv"

const hexDigits = "0123456789abcdef"

// str appends s as a JSON string the way JavaScript's JSON.stringify
// writes it: only '"', '\\' and control characters are escaped.
func str(b []byte, s string) []byte {
	b = append(b, '"')
	b = esc(b, s)
	return append(b, '"')
}

// strb is str for text built in a byte slice.
func strb(b, s []byte) []byte {
	b = append(b, '"')
	b = esc(b, s)
	return append(b, '"')
}

func esc[T string | []byte](b []byte, s T) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		start = i + 1
	}
	return append(b, s[start:]...)
}

// kv appends ,"key":"value".
func kv(b []byte, key, val string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return str(b, val)
}

// ki appends ,"key":n.
func ki(b []byte, key string, n int64) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, n, 10)
}

// stringEnd is the index of the quote that ends the JSON string whose
// contents start at b[i] (escapes stepped over), or len(b) or more when
// b ends first.
func stringEnd(b []byte, i int) int {
	for i < len(b) && b[i] != '"' {
		if b[i] == '\\' {
			i++
		}
		i++
	}
	return i
}
