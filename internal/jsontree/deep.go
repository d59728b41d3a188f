package jsontree

// ValidDeep reports whether raw is one JSON value with optional white
// space around it, however deep it nests: what Parse cannot say of a value
// nested deeper than MaxDepth (ErrTooDeep), which Node's JSON.parse reads.
// It builds nothing: one bit per open array or object. On false, off is
// where the input stops being JSON.
func ValidDeep(raw []byte) (off int, ok bool) {
	var open bitStack // 1: an object, 0: an array
	i, n := 0, len(raw)
	value := true // a value comes next
	for {
		i = skipSpace(raw, i)
		if value {
			if i >= n {
				return i, false
			}
			switch c := raw[i]; c {
			case '[', '{':
				i = skipSpace(raw, i+1)
				if i < n && raw[i] == c+2 { // "[]" or "{}"
					i++
					value = false
					continue
				}
				open.push(c == '{')
				if c == '{' {
					if i, ok = member(raw, i); !ok {
						return i, false
					}
				}
				continue
			case '"':
				i, ok = str(raw, i)
			default:
				i, ok = scalar(raw, i)
			}
			if !ok {
				return i, false
			}
			value = false
			continue
		}
		if open.n == 0 {
			return i, i == n
		}
		if i >= n {
			return i, false
		}
		obj := open.top()
		switch c := raw[i]; {
		case c == ',':
			i++
			if obj {
				if i, ok = member(raw, skipSpace(raw, i)); !ok {
					return i, false
				}
			}
			value = true
		case obj && c == '}', !obj && c == ']':
			open.pop()
			i++
		default:
			return i, false
		}
	}
}

// bitStack is a stack of booleans, one bit each.
type bitStack struct {
	w []uint64
	n int
}

func (b *bitStack) push(v bool) {
	if b.n/64 == len(b.w) {
		b.w = append(b.w, 0)
	}
	if v {
		b.w[b.n/64] |= 1 << (b.n % 64)
	} else {
		b.w[b.n/64] &^= 1 << (b.n % 64)
	}
	b.n++
}

func (b *bitStack) top() bool { return b.w[(b.n-1)/64]&(1<<((b.n-1)%64)) != 0 }

func (b *bitStack) pop() { b.n-- }

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && isSpace(raw[i]) {
		i++
	}
	return i
}

// member reads `"name" :` from i, and returns where its value starts.
func member(raw []byte, i int) (int, bool) {
	if i >= len(raw) || raw[i] != '"' {
		return i, false
	}
	i, ok := str(raw, i)
	if !ok {
		return i, false
	}
	i = skipSpace(raw, i)
	if i >= len(raw) || raw[i] != ':' {
		return i, false
	}
	return i + 1, true
}

// str reads the string that starts at raw[i] ('"'), and returns the index
// after its closing quote.
func str(raw []byte, i int) (int, bool) {
	for i++; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			i++
			if i >= len(raw) {
				return i, false
			}
			switch raw[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 1; k <= 4; k++ {
					if i+k >= len(raw) || !isHex(raw[i+k]) {
						return i, false
					}
				}
				i += 4
			default:
				return i, false
			}
		}
	}
	return i, false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scalar reads a number, true, false or null from i.
func scalar(raw []byte, i int) (int, bool) {
	for _, lit := range []string{"true", "false", "null"} {
		if len(raw)-i >= len(lit) && string(raw[i:i+len(lit)]) == lit {
			return i + len(lit), true
		}
	}
	start := i
	if i < len(raw) && raw[i] == '-' {
		i++
	}
	switch {
	case i < len(raw) && raw[i] == '0':
		i++
	case i < len(raw) && isDigit(raw[i]):
		for i < len(raw) && isDigit(raw[i]) {
			i++
		}
	default:
		return start, false
	}
	if i < len(raw) && raw[i] == '.' {
		i++
		if i >= len(raw) || !isDigit(raw[i]) {
			return i, false
		}
		for i < len(raw) && isDigit(raw[i]) {
			i++
		}
	}
	if i < len(raw) && raw[i]|0x20 == 'e' {
		i++
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			i++
		}
		if i >= len(raw) || !isDigit(raw[i]) {
			return i, false
		}
		for i < len(raw) && isDigit(raw[i]) {
			i++
		}
	}
	return i, true
}
