package secret

import (
	"regexp/syntax"
	"strings"
)

// A lead is what every match of an expression starts with, read from its
// syntax: one of several literals, each maybe followed by a run of bytes
// of a class ("SK" then 32 of [0-9a-fA-F] for twilio-api-key; "hvs." then
// 90 of [\w-], or "s." then 24 of [a-z0-9] for vault-service-token). A
// keyword place where no alternative of the lead can start is no match's
// start: an anchored rule's place goes before its expression runs, and a
// string none of whose places can start a match need not be decoded.
type lead []leadAlt

type leadAlt struct {
	lit  []byte
	fold []bool // per byte of lit: matched case-insensitively
	// class is the class of the run after lit (nil: none known), at
	// least min bytes long; wide: the class holds runes beyond ASCII.
	class *byteSet // the bytes below 0x80 in the class
	wide  bool
	min   int
}

// anyByte is the class of every byte: an alternative closed with it and
// min 0 says nothing past its literal.
var anyByte = byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}

// byteSet is a set of bytes: bit b%64 of word b/64 holds byte b.
type byteSet [4]uint64

func (b *byteSet) has(c byte) bool { return b[c/64]&(1<<(c%64)) != 0 }

func (b *byteSet) add(c byte) { b[c/64] |= 1 << (c % 64) }

// addHigh adds every byte from 0x80 on (those of runes beyond ASCII).
func (b *byteSet) addHigh() { b[2], b[3] = ^uint64(0), ^uint64(0) }

// maxLeadAlts bounds a lead's alternatives.
const maxLeadAlts = 16

// leadOf reads the lead of re, or nil when it cannot say one.
func leadOf(re *syntax.Regexp) lead {
	switch re.Op {
	case syntax.OpCapture:
		return leadOf(re.Sub[0])
	case syntax.OpLiteral:
		alt := leadAlt{}
		for _, r := range re.Rune {
			if r >= 0x80 {
				return nil
			}
			alt.lit = append(alt.lit, byte(r))
			alt.fold = append(alt.fold, re.Flags&syntax.FoldCase != 0)
		}
		return lead{alt}
	case syntax.OpAlternate:
		var out lead
		for _, sub := range re.Sub {
			l := leadOf(sub)
			if l == nil || len(out)+len(l) > maxLeadAlts {
				return nil
			}
			out = append(out, l...)
		}
		return out
	case syntax.OpConcat:
		subs := re.Sub
		for len(subs) > 0 && zeroWidth(subs[0].Op) {
			subs = subs[1:]
		}
		if len(subs) == 0 {
			return nil
		}
		out := leadOf(subs[0])
		if out == nil {
			return nil
		}
		// Extend the plain literals with what follows them: literals,
		// then a class run.
		for _, sub := range subs[1:] {
			for sub.Op == syntax.OpCapture {
				sub = sub.Sub[0]
			}
			open := false
			for _, a := range out {
				open = open || a.class == nil
			}
			if !open {
				break
			}
			if class, wide, min, ok := classRun(sub); ok {
				for k := range out {
					if out[k].class == nil {
						out[k].class, out[k].wide, out[k].min = class, wide, min
					}
				}
				break
			}
			next := leadOf(sub)
			if next == nil || len(out)*len(next) > maxLeadAlts {
				// What follows the open alternatives is not known.
				out.closeOpen()
				break
			}
			var ext lead
			for _, a := range out {
				if a.class != nil {
					ext = append(ext, a)
					continue
				}
				for _, b := range next {
					c := leadAlt{lit: append(append([]byte(nil), a.lit...), b.lit...),
						fold: append(append([]bool(nil), a.fold...), b.fold...), class: b.class, wide: b.wide, min: b.min}
					ext = append(ext, c)
				}
			}
			out = ext
			// A literal may be followed by more literals: go on only when
			// each alternative is still a plain literal.
			for _, a := range out {
				if a.class != nil {
					out.closeOpen()
					return out
				}
			}
		}
		return out
	}
	return nil
}

// closeOpen gives the alternatives of l still open (a plain literal,
// which an outer sequence would extend with its next part) the class of
// any bytes: leadOf stops reading after them, so what follows them is
// not known (aws-access-token's "A3T" then [A-Z0-9] lost the class and
// took the run after it).
func (l lead) closeOpen() {
	for k := range l {
		if l[k].class == nil {
			l[k].class, l[k].wide, l[k].min = &anyByte, true, 0
		}
	}
}

func zeroWidth(op syntax.Op) bool {
	switch op {
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEmptyMatch:
		return true
	}
	return false
}

// classRun reports a run of one class at least min >= 1 long: [..]{n,m},
// [..]+.
func classRun(re *syntax.Regexp) (class *byteSet, wide bool, min int, ok bool) {
	switch re.Op {
	case syntax.OpPlus:
		min = 1
	case syntax.OpRepeat:
		min = re.Min
	default:
		return nil, false, 0, false
	}
	cc := re.Sub[0]
	if cc.Op != syntax.OpCharClass || min < 1 {
		return nil, false, 0, false
	}
	class = new(byteSet)
	for i := 0; i+1 < len(cc.Rune); i += 2 {
		lo, hi := cc.Rune[i], cc.Rune[i+1]
		if hi >= 0x80 {
			wide = true
		}
		for r := lo; r <= hi && r < 0x80; r++ {
			class.add(byte(r))
		}
	}
	return class, wide, min, true
}

// may reports whether a match may start at text[i]; end says text ends
// where the text does (else a lead longer than text is not ruled out).
func (l lead) may(text []byte, i int, end bool) bool {
	for k := range l {
		if l[k].may(text[i:], end) {
			return true
		}
	}
	return false
}

func (a *leadAlt) may(t []byte, end bool) bool {
	for j, c := range a.lit {
		if j >= len(t) {
			return !end
		}
		b := t[j]
		if b >= 0x80 {
			// A case-folded k or s may be the Kelvin sign or the long s.
			return a.fold[j] && (c|0x20 == 'k' || c|0x20 == 's')
		}
		if b == c || a.fold[j] && lower[b] == lower[c] {
			continue
		}
		return false
	}
	if a.class == nil {
		return true
	}
	t = t[len(a.lit):]
	for j := 0; j < a.min; j++ {
		if j >= len(t) {
			return !end
		}
		b := t[j]
		if b >= 0x80 {
			return a.wide
		}
		if !a.class.has(b) {
			return false
		}
	}
	return true
}

// valueLead is the lead of the value of a "name = value" rule with names
// (its expression after assignShape and the quotes, blanks or '=' before
// the value), when each alternative of it starts with one of the rule's
// keywords: a match's value then starts at a keyword place. Else nil.
func valueLead(expr string, keywords []string) lead {
	const beforeValue = "[\\x60'\"\\s=]{0,5}"
	i := strings.Index(expr, assignShape+beforeValue)
	if i < 0 || !strings.HasPrefix(expr, "(?i)") {
		return nil
	}
	p, err := syntax.Parse("(?i)"+expr[i+len(assignShape)+len(beforeValue):], syntax.Perl)
	if err != nil {
		return nil
	}
	l := leadOf(p)
	for _, a := range l {
		starts := false
		for _, k := range keywords {
			starts = starts || len(a.lit) >= len(k) && strings.EqualFold(string(a.lit[:len(k)]), k)
		}
		if !starts {
			return nil
		}
	}
	return l
}

// at is the set of bytes that may be byte j of a match of l that starts
// with keyword kw (lowercase): what l.may lets through there (any byte
// where l says nothing), from the alternatives whose literal can start
// with kw ("hvs." is not one for "s.").
func (l lead) at(kw string, j int) byteSet {
	var out byteSet
	for k := range l {
		if !l[k].startsWith(kw) {
			continue
		}
		s := l[k].at(j)
		for w := range out {
			out[w] |= s[w]
		}
	}
	return out
}

// startsWith reports whether a's literal may hold kw at its start (the
// bytes of kw past the literal are not looked at).
func (a *leadAlt) startsWith(kw string) bool {
	for j := 0; j < len(kw) && j < len(a.lit); j++ {
		if lower[a.lit[j]] != kw[j] {
			return false
		}
	}
	return true
}

func (a *leadAlt) at(j int) byteSet {
	var s byteSet
	if j < len(a.lit) {
		c := a.lit[j]
		s.add(c)
		if a.fold[j] {
			l := lower[c]
			s.add(l)
			if l >= 'a' && l <= 'z' {
				s.add(l - 'a' + 'A')
			}
			if l == 'k' || l == 's' {
				s.addHigh() // the Kelvin sign, the long s
			}
		}
		return s
	}
	if a.class == nil || j-len(a.lit) >= a.min {
		return anyByte
	}
	s = *a.class
	if a.wide {
		s.addHigh()
	}
	return s
}
