// Package jsonpos maps JSON pointers and byte offsets within one JSON text to positions a person can find.
package jsonpos

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Column returns the 1-based column, in Unicode code points, of byte offset
// off within line. Invalid UTF-8 bytes count as one column each.
func Column(line []byte, off int) int {
	if off < 0 {
		off = 0
	}
	if off > len(line) {
		off = len(line)
	}
	return utf8.RuneCount(line[:off]) + 1
}

// Find returns the byte offset within doc of the value that the JSON
// pointer ptr (RFC 6901) names. When the pointer names a member that does
// not exist, it returns the offset of the deepest value that does exist
// and ok=false. key=true makes an object member resolve to its key instead
// of its value (useful to point at an unknown field).
func Find(doc []byte, ptr string, key bool) (off int, ok bool) {
	s := scanner{b: doc}
	return find(doc, ptr, key, s.member, s.element)
}

// find is Find walking the document with member and element (a scanner's,
// or a Locator's indexes).
func find(doc []byte, ptr string, key bool, member func(i int, tok string) (kpos, vpos int, found bool),
	element func(i, idx int) (int, bool)) (off int, ok bool) {
	toks, err := Split(ptr)
	if err != nil {
		return skipSpace(doc, 0), false
	}
	pos := skipSpace(doc, 0)
	for _, tok := range toks {
		if pos >= len(doc) {
			return pos, false
		}
		switch doc[pos] {
		case '{':
			kpos, vpos, found := member(pos, tok)
			if !found {
				return pos, false
			}
			if key && tok == toks[len(toks)-1] {
				pos = kpos
				continue
			}
			pos = vpos
		case '[':
			idx, err := strconv.Atoi(tok)
			if err != nil || idx < 0 {
				return pos, false
			}
			vpos, found := element(pos, idx)
			if !found {
				return pos, false
			}
			pos = vpos
		default:
			return pos, false
		}
	}
	return pos, true
}

// Split breaks a JSON pointer into its unescaped reference tokens.
func Split(ptr string) ([]string, error) {
	if ptr == "" {
		return nil, nil
	}
	if ptr[0] != '/' {
		return nil, strconv.ErrSyntax
	}
	parts := strings.Split(ptr[1:], "/")
	for i, p := range parts {
		if strings.Contains(p, "~") {
			p = strings.ReplaceAll(p, "~1", "/")
			parts[i] = strings.ReplaceAll(p, "~0", "~")
		}
	}
	return parts, nil
}

// Escape escapes one reference token for use in a JSON pointer.
func Escape(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanner skips over JSON values. It never allocates for values it skips
// and gives up (returning len(b)) on malformed input instead of panicking.
type scanner struct{ b []byte }

func (s *scanner) space(i int) int { return skipSpace(s.b, i) }

// member finds key tok in the object starting at i; it returns the offset of
// the key's opening quote and of its value. The last duplicate wins, as in
// the decoders Claude Code uses.
func (s *scanner) member(i int, tok string) (kpos, vpos int, found bool) {
	i = s.space(i + 1)
	for i < len(s.b) && s.b[i] != '}' {
		if s.b[i] != '"' {
			return 0, 0, found
		}
		start := i
		end := s.str(i)
		name, ok := unquote(s.b[start:end])
		i = s.space(end)
		if i >= len(s.b) || s.b[i] != ':' {
			return 0, 0, found
		}
		i = s.space(i + 1)
		if ok && name == tok {
			kpos, vpos, found = start, i, true
		}
		i = s.space(s.value(i))
		if i < len(s.b) && s.b[i] == ',' {
			i = s.space(i + 1)
		}
	}
	return kpos, vpos, found
}

// element finds element idx of the array starting at i.
func (s *scanner) element(i, idx int) (int, bool) {
	i = s.space(i + 1)
	for n := 0; i < len(s.b) && s.b[i] != ']'; n++ {
		if n == idx {
			return i, true
		}
		next := s.space(s.value(i))
		if next <= i {
			return i, false
		}
		i = next
		if i < len(s.b) && s.b[i] == ',' {
			i = s.space(i + 1)
		}
	}
	return i, false
}

// value returns the offset just past the value starting at i.
func (s *scanner) value(i int) int {
	if i >= len(s.b) {
		return len(s.b)
	}
	switch s.b[i] {
	case '"':
		return s.str(i)
	case '{', '[':
		// Skip nested containers iteratively so deep nesting cannot blow the stack.
		depth := 0
		for i < len(s.b) {
			switch s.b[i] {
			case '"':
				i = s.str(i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(s.b)
	default:
		for i < len(s.b) {
			switch s.b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return len(s.b)
	}
}

// str returns the offset just past the string starting at i.
func (s *scanner) str(i int) int {
	for i++; i < len(s.b); i++ {
		switch s.b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(s.b)
}

func unquote(q []byte) (string, bool) {
	if len(q) < 2 {
		return "", false
	}
	inner := q[1 : len(q)-1]
	if !strings.ContainsRune(string(inner), '\\') {
		return string(inner), true
	}
	s, err := strconv.Unquote(string(q))
	if err != nil {
		return string(inner), false
	}
	return s, true
}

// LineCol converts a byte offset in a multi-line document to a 1-based line
// and code point column.
func LineCol(doc []byte, off int) (line, col int) {
	if off > len(doc) {
		off = len(doc)
	}
	start := 0
	line = 1
	for i := 0; i < off; i++ {
		if doc[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, Column(doc[start:], off-start)
}
