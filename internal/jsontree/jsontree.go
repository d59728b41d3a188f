// Package jsontree parses one JSON value into a flat, reusable tree that accepts exactly what encoding/json accepts.
package jsontree

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"math/bits"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is encoding/json's nesting limit: a value nested deeper is an error.
const MaxDepth = 10000

// ErrTooDeep is Decode's error for a value that nests arrays or objects
// more than MaxDepth deep. Such a value is JSON all the same (Node's
// JSON.parse reads a million levels): ccvet does not read it.
var ErrTooDeep = errors.New("exceeded max depth")

// Kind is the JSON type of a node.
type Kind uint8

// The kinds of node.
const (
	Invalid Kind = iota
	Null
	False
	True
	Number
	String
	Array
	Object
)

// Node is one value (or object key) of a tree. Nodes are stored in document
// order: a container's children follow it, an object's as key, value, key,
// value...
type Node struct {
	// Start and End delimit the node in the input: for a string, the bytes
	// between the quotes; for a number or literal, the literal; for an array or
	// object, from its opening bracket to just after its closing one.
	Start, End int32
	// Next is the index of the first node after this node's subtree (its next
	// sibling, if it has one).
	Next int32
	// Len is the number of items of an array or members of an object.
	Len  int32
	Kind Kind
	// Esc is true for a string that holds a backslash escape; UEsc for
	// one that holds a \u escape (the only escape that decodes to other
	// than one byte).
	Esc, UEsc bool
}

// Tree is a parsed value. The zero Tree is ready for Parse; reusing it for the
// next line reuses its memory.
type Tree struct {
	Raw   []byte // the input of the last Parse; not copied
	Nodes []Node
	// Surrogate is true when some string holds a \u escape of a UTF-16
	// surrogate (\uD800 to \uDFFF); NULEscape when some string holds \u0000.
	Surrogate, NULEscape bool
	stack                []int32
	buf                  []byte
	keybuf               []byte
	// memo holds the last lookups in objects of memoMin members or more
	// (an entry's root is searched for "type" or "message" by several
	// checks); Parse empties it.
	memo     [4]getMemo
	memoNext uint8
	// rootType is 1 + the value node of the root's last member "type"
	// (0: none); rootEsc says a root key holds an escape (which may spell
	// "type"). Parse puts what they say in memo: every check looks type up.
	rootType int32
	rootEsc  bool
}

// A getMemo is one lookup Get made: key in object obj-1 (0: empty) is
// node res.
type getMemo struct {
	key      string
	obj, res int32
}

// memoMin is the number of members from which Get remembers a lookup:
// below it, the search costs less than the look in the memo.
const memoMin = 8

// Error is a syntax error. Off is the byte offset of the offending byte, or
// len(input) when the input ends too early (EOF is then true).
type Error struct {
	Off int
	EOF bool
	Msg string
}

func (e *Error) Error() string {
	if e.EOF {
		return "unexpected end of JSON input"
	}
	return e.Msg + " at offset " + strconv.Itoa(e.Off)
}

// TrailingMsg is the Msg of the error for data after a complete value.
const TrailingMsg = "unexpected data after the JSON value"

// Root is the index of the root node after a successful Parse.
const Root = 0

// isSpace reports JSON white space; the first test settles the usual byte
// (a quote, a brace, a digit).
func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\r' || c == '\n') }

// plain marks the bytes a string may hold without a closer look.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Parse parses raw as one JSON value, with optional white space around it.
// It accepts and rejects exactly the inputs that encoding/json's Decoder
// (followed by a check that only white space remains) accepts and rejects.
// On error the tree is not usable.
func (t *Tree) Parse(raw []byte) error {
	t.Raw = raw
	t.Surrogate, t.NULEscape = false, false
	t.memo = [4]getMemo{}
	t.rootType, t.rootEsc = 0, false
	if len(raw) > math.MaxInt32-1 {
		t.Nodes, t.stack = t.Nodes[:0], t.stack[:0]
		return &Error{Off: 0, Msg: "input too large"}
	}
	nodes, stack, err := t.parse(raw, t.Nodes[:0], t.stack[:0])
	t.Nodes, t.stack = nodes, stack
	return err
}

// push appends a node of kind k spanning raw[start:end], written in place
// (an appended composite literal is built in a temporary and copied, which
// stalls on the copy's loads).
func push(nodes []Node, k Kind, start, end int, esc, uesc bool) []Node {
	n := len(nodes)
	if n == cap(nodes) {
		nodes = append(nodes, Node{})
	} else {
		nodes = nodes[:n+1]
	}
	nd := &nodes[n]
	nd.Start, nd.End, nd.Next, nd.Len = int32(start), int32(end), int32(n+1), 0
	nd.Kind, nd.Esc, nd.UEsc = k, esc, uesc
	return nodes
}

// parse is Parse on the tree's node and stack slices, held in locals.
func (t *Tree) parse(raw []byte, nodes []Node, stack []int32) ([]Node, []int32, error) {
	n := len(raw)
	i := 0
	eof := func() error { return &Error{Off: n, EOF: true} }
	bad := func(off int, msg string) error { return &Error{Off: off, Msg: msg} }

value:
	for i < n && isSpace(raw[i]) {
		i++
	}
	if i >= n {
		return nodes, stack, eof()
	}
	switch c := raw[i]; {
	case c == '{' || c == '[':
		if len(stack) >= MaxDepth {
			return nodes, stack, bad(i, "exceeded max depth")
		}
		k := Object
		if c == '[' {
			k = Array
		}
		stack = append(stack, int32(len(nodes)))
		nodes = push(nodes, k, i, 0, false, false)
		i++
		for i < n && isSpace(raw[i]) {
			i++
		}
		if i >= n {
			return nodes, stack, eof()
		}
		if k == Array {
			if raw[i] == ']' {
				goto closeContainer
			}
			goto value
		}
		if raw[i] == '}' {
			goto closeContainer
		}
		if raw[i] != '"' {
			return nodes, stack, bad(i, "looking for beginning of object key string")
		}
		goto key
	case c == '"':
		end, esc, uesc, err := t.stringEnd(raw, i)
		if err != nil {
			return nodes, stack, err
		}
		nodes = push(nodes, String, i+1, end, esc, uesc)
		i = end + 1
	case c == '-' || (c >= '0' && c <= '9'):
		j := i
		if c == '-' {
			j++
			if j >= n {
				return nodes, stack, eof()
			}
		}
		switch d := raw[j]; {
		case d == '0':
			j++
		case d >= '1' && d <= '9':
			j++
			for j < n && raw[j] >= '0' && raw[j] <= '9' {
				j++
			}
		default:
			return nodes, stack, bad(j, "in numeric literal")
		}
		if j < n && raw[j] == '.' {
			j++
			if j >= n {
				return nodes, stack, eof()
			}
			if raw[j] < '0' || raw[j] > '9' {
				return nodes, stack, bad(j, "after decimal point in numeric literal")
			}
			for j < n && raw[j] >= '0' && raw[j] <= '9' {
				j++
			}
		}
		if j < n && (raw[j] == 'e' || raw[j] == 'E') {
			j++
			if j < n && (raw[j] == '+' || raw[j] == '-') {
				j++
			}
			if j >= n {
				return nodes, stack, eof()
			}
			if raw[j] < '0' || raw[j] > '9' {
				return nodes, stack, bad(j, "in exponent of numeric literal")
			}
			for j < n && raw[j] >= '0' && raw[j] <= '9' {
				j++
			}
		}
		nodes = push(nodes, Number, i, j, false, false)
		i = j
	case c == 't' || c == 'f' || c == 'n':
		lit, k := "true", True
		switch c {
		case 'f':
			lit, k = "false", False
		case 'n':
			lit, k = "null", Null
		}
		for m := 1; m < len(lit); m++ {
			if i+m >= n {
				return nodes, stack, eof()
			}
			if raw[i+m] != lit[m] {
				return nodes, stack, bad(i+m, "in literal "+lit)
			}
		}
		nodes = push(nodes, k, i, i+len(lit), false, false)
		i += len(lit)
	default:
		return nodes, stack, bad(i, "looking for beginning of value")
	}

afterValue:
	if len(stack) == 0 {
		for i < n && isSpace(raw[i]) {
			i++
		}
		if i < n {
			return nodes, stack, bad(i, TrailingMsg)
		}
		if !t.rootEsc {
			t.remember(Root, "type", int(t.rootType)-1)
		}
		return nodes, stack, nil
	}
	for i < n && isSpace(raw[i]) {
		i++
	}
	if i >= n {
		return nodes, stack, eof()
	}
	{
		top := stack[len(stack)-1]
		nodes[top].Len++
		if nodes[top].Kind == Array {
			switch raw[i] {
			case ',':
				i++
				goto value
			case ']':
				goto closeContainer
			}
			return nodes, stack, bad(i, "after array element")
		}
		switch raw[i] {
		case ',':
			i++
			for i < n && isSpace(raw[i]) {
				i++
			}
			if i >= n {
				return nodes, stack, eof()
			}
			if raw[i] != '"' {
				return nodes, stack, bad(i, "looking for beginning of object key string")
			}
			goto key
		case '}':
			goto closeContainer
		}
		return nodes, stack, bad(i, "after object key:value pair")
	}

key:
	{
		end, esc, uesc, err := t.stringEnd(raw, i)
		if err != nil {
			return nodes, stack, err
		}
		if len(stack) == 1 {
			if esc {
				t.rootEsc = true
			} else if end-i == 5 && string(raw[i+1:end]) == "type" {
				t.rootType = int32(len(nodes)) + 2 // its value's node, + 1
			}
		}
		nodes = push(nodes, String, i+1, end, esc, uesc)
		i = end + 1
		for i < n && isSpace(raw[i]) {
			i++
		}
		if i >= n {
			return nodes, stack, eof()
		}
		if raw[i] != ':' {
			return nodes, stack, bad(i, "after object key")
		}
		i++
		goto value
	}

closeContainer:
	{
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &nodes[top]
		nd.End = int32(i + 1)
		nd.Next = int32(len(nodes))
		i++
		goto afterValue
	}
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// stringEnd is scanString, for a value or a key alike: the usual string
// ends at the first stop of stringStop64, without a call to scanString.
func (t *Tree) stringEnd(raw []byte, i int) (end int, esc, uesc bool, err error) {
	if wide64 {
		end, esc = stringStop64(raw, i+1)
		if end < len(raw) && raw[end] == '"' {
			return end, esc, false, nil
		}
	}
	return t.scanString(raw, i)
}

// scanString scans the string whose opening quote is at raw[i]; it returns
// the offset of the closing quote, whether the string holds an escape and
// whether it holds a \u escape.
func (t *Tree) scanString(raw []byte, i int) (end int, esc, uesc bool, err error) {
	n := len(raw)
	j := i + 1
	for {
		// Find the first '"', '\\' or byte < 0x20: 64 or 32 bytes at a
		// time where the machine can (the simple escapes are skipped there
		// too), else sixteen.
		if wide64 || wide && n >= 32 {
			var e bool
			if wide64 {
				j, e = stringStop64(raw, j)
			} else {
				j, e = stringStop(raw, j)
			}
			esc = esc || e
			if j >= n {
				return 0, false, false, &Error{Off: n, EOF: true}
			}
			goto found
		}
		for j+16 <= n {
			w := binary.LittleEndian.Uint64(raw[j:])
			v := binary.LittleEndian.Uint64(raw[j+8:])
			m := special(w)
			if m != 0 {
				j += bits.TrailingZeros64(m) / 8
				goto found
			}
			if m = special(v); m != 0 {
				j += 8 + bits.TrailingZeros64(m)/8
				goto found
			}
			j += 16
		}
		for j < n && plain[raw[j]] {
			j++
		}
		if j >= n {
			return 0, false, false, &Error{Off: n, EOF: true}
		}
	found:
		switch raw[j] {
		case '"':
			return j, esc, uesc, nil
		case '\\':
			esc = true
			j++
			if j >= n {
				return 0, false, false, &Error{Off: n, EOF: true}
			}
			switch raw[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				uesc = true
				for m := 1; m <= 4; m++ {
					if j+m >= n {
						return 0, false, false, &Error{Off: n, EOF: true}
					}
					if !isHex(raw[j+m]) {
						return 0, false, false, &Error{Off: j + m, Msg: "in \\u hexadecimal character escape"}
					}
				}
				if c, d := raw[j+1]|0x20, raw[j+2]|0x20; c == 'd' && (d == '8' || d == '9' || d >= 'a') {
					t.Surrogate = true
				} else if string(raw[j+1:j+5]) == "0000" {
					t.NULEscape = true
				}
				j += 5
			default:
				return 0, false, false, &Error{Off: j, Msg: "in string escape code"}
			}
		default: // a control character
			return 0, false, false, &Error{Off: j, Msg: "in string literal"}
		}
	}
}

// special flags the bytes of w that are '"', '\\' or < 0x20: the lowest
// flagged byte (bit 7 of it) is exact; bytes above it may be flagged wrongly.
func special(w uint64) uint64 {
	q := w ^ (lsb * '"')
	b := w ^ (lsb * '\\')
	return (((q - lsb) &^ q) | ((b - lsb) &^ b) | ((w - lsb*0x20) &^ w)) & msb
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// Kind returns the kind of node i, or Invalid when i < 0.
func (t *Tree) Kind(i int) Kind {
	if i < 0 || i >= len(t.Nodes) {
		return Invalid
	}
	return t.Nodes[i].Kind
}

// Len returns the number of items or members of an array or object.
func (t *Tree) Len(i int) int {
	if i < 0 {
		return 0
	}
	return int(t.Nodes[i].Len)
}

// Next returns the index of the node after i's subtree: its next sibling
// (for an object key, that is its value; for a value, the next key).
func (t *Tree) Next(i int) int { return int(t.Nodes[i].Next) }

// Child returns the first child of an array or object (for an object, its
// first key), or -1 when it has none.
func (t *Tree) Child(i int) int {
	if i < 0 || t.Nodes[i].Len == 0 {
		return -1
	}
	return i + 1
}

// RawBytes returns the bytes of node i (for a string, between its quotes).
func (t *Tree) RawBytes(i int) []byte {
	nd := &t.Nodes[i]
	return t.Raw[nd.Start:nd.End]
}

// Get returns the value of member key of object i (the last one, when the
// key occurs more than once, as encoding/json does), or -1.
func (t *Tree) Get(i int, key string) int {
	if t.Kind(i) != Object {
		return -1
	}
	n := t.Nodes[i].Len
	if n >= memoMin {
		for j := range t.memo {
			if m := &t.memo[j]; m.obj == int32(i)+1 && m.key == key {
				return int(m.res)
			}
		}
	}
	found := -1
	k := i + 1
	for m := int32(0); m < n; m++ {
		v := k + 1
		// Most keys have no escape: their bytes are the key, and only one
		// of the same length can match (KeyIs, a call, for the others).
		if nd := &t.Nodes[k]; !nd.Esc {
			if int(nd.End-nd.Start) == len(key) && string(t.Raw[nd.Start:nd.End]) == key {
				found = v
			}
		} else if t.KeyIs(k, key) {
			found = v
		}
		k = int(t.Nodes[v].Next)
	}
	if n >= memoMin {
		t.memo[t.memoNext%4] = getMemo{key: key, obj: int32(i) + 1, res: int32(found)}
		t.memoNext++
	}
	return found
}

// remember records, for the next Get of key in object i, the answer res
// (the value node of its last member named key, or -1), as Get itself
// records a lookup: for a caller that walked the members anyway.
func (t *Tree) remember(i int, key string, res int) {
	if t.Kind(i) != Object || t.Nodes[i].Len < memoMin {
		return
	}
	for j := range t.memo {
		if m := &t.memo[j]; m.obj == int32(i)+1 && m.key == key {
			m.res = int32(res)
			return
		}
	}
	t.memo[t.memoNext%4] = getMemo{key: key, obj: int32(i) + 1, res: int32(res)}
	t.memoNext++
}

// KeyIs reports whether string node k equals s once unescaped.
func (t *Tree) KeyIs(k int, s string) bool {
	nd := &t.Nodes[k]
	if !nd.Esc {
		return string(t.Raw[nd.Start:nd.End]) == s
	}
	t.buf = t.AppendStr(t.buf[:0], k)
	return string(t.buf) == s
}

// Path follows object keys from node i; it returns -1 if one is missing.
func (t *Tree) Path(i int, keys ...string) int {
	for _, k := range keys {
		i = t.Get(i, k)
		if i < 0 {
			return -1
		}
	}
	return i
}

// Index returns item j of array i, or -1.
func (t *Tree) Index(i, j int) int {
	if t.Kind(i) != Array || j < 0 || j >= int(t.Nodes[i].Len) {
		return -1
	}
	c := i + 1
	for ; j > 0; j-- {
		c = int(t.Nodes[c].Next)
	}
	return c
}

// Str returns the unescaped string of node i, and false when i is not a
// string. The input must be valid UTF-8 (encoding/json would replace invalid
// bytes with U+FFFD).
func (t *Tree) Str(i int) (string, bool) {
	if t.Kind(i) != String {
		return "", false
	}
	nd := &t.Nodes[i]
	if !nd.Esc {
		return string(t.Raw[nd.Start:nd.End]), true
	}
	t.buf = t.AppendStr(t.buf[:0], i)
	return string(t.buf), true
}

// StrOrEmpty returns the unescaped string of node i, or "" when i is not a string.
func (t *Tree) StrOrEmpty(i int) string {
	s, _ := t.Str(i)
	return s
}

// StrIs reports whether node i is a string equal to s, without allocating.
func (t *Tree) StrIs(i int, s string) bool {
	return t.Kind(i) == String && t.KeyIs(i, s)
}

// Bool returns the value of node i when it is true or false.
func (t *Tree) Bool(i int) (v, ok bool) {
	switch t.Kind(i) {
	case True:
		return true, true
	case False:
		return false, true
	}
	return false, false
}

// AppendStr appends the unescaped string of node i to dst, the way
// encoding/json unquotes it (a lone or invalid surrogate escape becomes
// U+FFFD; invalid UTF-8 bytes too).
func (t *Tree) AppendStr(dst []byte, i int) []byte { return t.appendStr(dst, i, false) }

// AppendStrUTF8 is AppendStr for a tree whose input is known to be valid
// UTF-8 (a line utf8.Valid accepted): the runs between escapes are copied
// without checking them again.
func (t *Tree) AppendStrUTF8(dst []byte, i int) []byte { return t.appendStr(dst, i, true) }

func (t *Tree) appendStr(dst []byte, i int, valid bool) []byte {
	nd := &t.Nodes[i]
	s := t.Raw[nd.Start:nd.End]
	for r := 0; r < len(s); {
		c := s[r]
		if c != '\\' {
			// A run up to the next escape: copied whole when it is valid
			// UTF-8 (a multi-byte sequence never holds a backslash, so the
			// run decodes as the bytes one at a time would).
			j := bytes.IndexByte(s[r:], '\\')
			if j < 0 {
				j = len(s) - r
			}
			if run := s[r : r+j]; valid || utf8.Valid(run) {
				dst = append(dst, run...)
			} else {
				dst = appendRunes(dst, run)
			}
			r += j
			continue
		}
		r++
		switch s[r] {
		case 'u':
			rr := getu4(s[r-1:])
			r += 5
			if utf16.IsSurrogate(rr) {
				rr1 := getu4(s[r:])
				if dec := utf16.DecodeRune(rr, rr1); dec != unicode.ReplacementChar {
					r += 6
					dst = utf8.AppendRune(dst, dec)
					continue
				}
				rr = unicode.ReplacementChar
			}
			dst = utf8.AppendRune(dst, rr)
			continue
		default:
			dst = append(dst, Unescape(s[r]))
		}
		r++
	}
	return dst
}

// Unescape is the byte a two-byte escape \c stands for in a JSON string
// (c is not 'u'): \n a newline, \" a quote, and so on.
func Unescape(c byte) byte {
	switch c {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return c // '"', '\\', '/'
}

// appendRunes appends run, holding no backslash, one code point at a
// time: an invalid UTF-8 byte becomes U+FFFD.
func appendRunes(dst, run []byte) []byte {
	for k := 0; k < len(run); {
		if c := run[k]; c < utf8.RuneSelf {
			dst = append(dst, c)
			k++
			continue
		}
		rr, size := utf8.DecodeRune(run[k:])
		k += size
		dst = utf8.AppendRune(dst, rr)
	}
	return dst
}

// getu4 decodes \uXXXX from the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// HasNUL reports whether string node i holds a NUL character once
// unescaped (raw NUL bytes are not valid JSON, so only \u0000 counts).
func (t *Tree) HasNUL(i int) bool {
	nd := &t.Nodes[i]
	if nd.Kind != String || !nd.Esc {
		return false
	}
	s := t.Raw[nd.Start:nd.End]
	for {
		k := bytes.IndexByte(s, '\\')
		if k < 0 || k+1 >= len(s) {
			return false
		}
		if s[k+1] == 'u' && len(s) >= k+6 && string(s[k+2:k+6]) == "0000" {
			return true
		}
		s = s[k+2:]
	}
}

// Value converts node i to what encoding/json's Decoder with UseNumber
// produces (map[string]any, []any, string, json.Number, bool, nil).
func (t *Tree) Value(i int) any {
	nd := &t.Nodes[i]
	switch nd.Kind {
	case Null:
		return nil
	case True:
		return true
	case False:
		return false
	case Number:
		return json.Number(t.Raw[nd.Start:nd.End])
	case String:
		s, _ := t.Str(i)
		return s
	case Array:
		a := make([]any, 0, nd.Len)
		for c, m := i+1, int32(0); m < nd.Len; m++ {
			a = append(a, t.Value(c))
			c = int(t.Nodes[c].Next)
		}
		return a
	case Object:
		o := make(map[string]any, nd.Len)
		for k, m := i+1, int32(0); m < nd.Len; m++ {
			key, _ := t.Str(k)
			o[key] = t.Value(k + 1)
			k = int(t.Nodes[k+1].Next)
		}
		return o
	}
	return nil
}
