// Package ledger models the request ledger of Claude Code 2.1.26x+ (api-request, -blob, -shape entries): content hashes, message runs and request rebuilding.
package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// AppendCanon appends the canonical JSON of v the way Claude Code hashes
// ledger content: object keys sorted, no white space, strings escaped as
// JavaScript's JSON.stringify does, numbers as JavaScript prints them, and
// every "cache_control" member left out.
func AppendCanon(dst []byte, v jsontree.Val) []byte {
	return appendCanon(dst, v, false)
}

// AppendMessageCanon is AppendCanon for a message: a string content counts
// as one text block, as Claude Code hashes it.
func AppendMessageCanon(dst []byte, v jsontree.Val) []byte {
	return appendCanon(dst, v, true)
}

func appendCanon(dst []byte, v jsontree.Val, message bool) []byte {
	switch v.Kind() {
	case jsontree.Null:
		return append(dst, "null"...)
	case jsontree.True:
		return append(dst, "true"...)
	case jsontree.False:
		return append(dst, "false"...)
	case jsontree.String:
		s, _ := v.Str()
		return appendJSString(dst, s)
	case jsontree.Array:
		dst = append(dst, '[')
		n := 0
		for _, it := range v.Items() {
			if n > 0 {
				dst = append(dst, ',')
			}
			dst = AppendCanon(dst, it)
			n++
		}
		return append(dst, ']')
	case jsontree.Object:
		type member struct {
			k string
			v jsontree.Val
		}
		var ms []member
		for k, mv := range v.Members() {
			if k == "cache_control" {
				continue
			}
			ms = append(ms, member{k, mv})
		}
		// JavaScript sorts keys by UTF-16 code units; for the keys Claude
		// Code writes (ASCII) that is byte order.
		slices.SortStableFunc(ms, func(a, b member) int { return strings.Compare(a.k, b.k) })
		// A repeated key: JSON.parse keeps the last value.
		out := ms[:0]
		for i, m := range ms {
			if i+1 < len(ms) && ms[i+1].k == m.k {
				continue
			}
			out = append(out, m)
		}
		dst = append(dst, '{')
		for i, m := range out {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSString(dst, m.k)
			dst = append(dst, ':')
			if message && m.k == "content" && m.v.Kind() == jsontree.String {
				dst = appendTextBlocks(dst, m.v)
				continue
			}
			dst = AppendCanon(dst, m.v)
		}
		return append(dst, '}')
	default:
		raw, _ := v.Number()
		return appendJSNumber(dst, raw)
	}
}

// appendJSString escapes s as JSON.stringify does.
func appendJSString(dst []byte, s string) []byte {
	const hexd = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				dst = append(dst, '\\', '"')
			case '\\':
				dst = append(dst, '\\', '\\')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				if c < 0x20 {
					dst = append(dst, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&15])
				} else {
					dst = append(dst, c)
				}
			}
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		dst = append(dst, s[i:i+size]...)
		i += size
	}
	return append(dst, '"')
}

// appendJSNumber prints a JSON number literal as JavaScript would after
// parsing it.
func appendJSNumber(dst []byte, raw string) []byte {
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return append(dst, "null"...)
	}
	if f == 0 {
		return append(dst, '0')
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	dst = append(dst, mant...)
	dst = append(dst, 'e', sign)
	return append(dst, exp...)
}

// Hash is the ledger's content hash of v: the hex sha256 of its canonical JSON.
func Hash(v jsontree.Val) string {
	sum := sha256.Sum256(AppendCanon(nil, v))
	return hex.EncodeToString(sum[:])
}

// appendTextBlocks appends a string content as the one text block it stands for.
func appendTextBlocks(dst []byte, v jsontree.Val) []byte {
	s, _ := v.Str()
	dst = append(dst, `[{"text":`...)
	dst = appendJSString(dst, s)
	return append(dst, `,"type":"text"}]`...)
}
