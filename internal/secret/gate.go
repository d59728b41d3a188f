package secret

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// A gate is what an anchored rule's match must hold after a stretch of
// any length: gitleaks' curl rules read "curl", then anything on up to
// five lines, then "-H" or "--header" (or "-u", "--user") and what the
// option says. Run from each place of "curl", the expression reads every
// line after it in search of the option, the kilobytes of a long
// command's output included, and mostly matches nowhere: no option there,
// or one with no credential ("-H 'Content-Type: …'"). On a 200 MB store of
// real transcripts that took 576 runs, 18 µs each for curl-auth-header,
// 9 ms of the 23 the rules' expressions took, for no match. A gate is the
// rest of the expression from the option on: a match from a place holds a
// match of the rest, so a place with none after it (before the bound its
// matches can reach) starts no match.
type gate struct {
	lits []string       // the spellings of the literal the rest starts with
	rest *regexp.Regexp // the rest of the expression, not anchored
}

// maxGateLits bounds how many spellings a gate's literal has.
const maxGateLits = 8

// gateOf returns the gate of the expression expr, or nil: expr is, at its
// top level, a sequence in which some part may span any length, and after
// the first such part comes a run of literals (or alternations of
// literals, not case-folded) whose spellings are each 2 bytes or longer:
// the first such run is the gate's. The rest is cut from expr's own text
// (a parsed expression printed back folds its classes' cases first: 17 ms
// for curl-auth-user's [^"]).
func gateOf(expr string) *gate {
	if !mayRepeat(expr) {
		return nil
	}
	starts := topAtoms(expr)
	if starts == nil {
		return nil
	}
	text := func(k int) string {
		if k+1 < len(starts) {
			return expr[starts[k]:starts[k+1]]
		}
		return expr[starts[k]:]
	}
	atom := func(k int) *syntax.Regexp {
		re, err := syntax.Parse(text(k), syntax.Perl)
		if err != nil {
			return nil
		}
		return re
	}
	first := -1
	for k := range starts {
		if !mayRepeat(text(k)) {
			continue
		}
		re := atom(k)
		if re == nil {
			return nil
		}
		if maxLen(re) < 0 {
			first = k
			break
		}
	}
	if first < 0 {
		return nil
	}
	for j := first + 1; j < len(starts); j++ {
		lits := []string{""}
		k := j
		for ; k < len(starts); k++ {
			re := atom(k)
			if re == nil {
				return nil
			}
			next := cross(lits, literalSet(re))
			if next == nil {
				break
			}
			lits = next
		}
		if k == j || !allLonger(lits, 2) {
			continue
		}
		rest, err := regexp.Compile(expr[starts[j]:])
		if err != nil {
			return nil
		}
		return &gate{lits: lits, rest: rest}
	}
	return nil
}

// mayRepeat reports whether s holds what an unbounded repetition is
// written with ('*', '+', "{n,}"): only a repetition spans any length, so
// an expression or atom without one need not be parsed to look for it.
func mayRepeat(s string) bool { return strings.ContainsAny(s, "*+") || strings.Contains(s, ",}") }

// cross is every text of a followed by one of b, nil when b is nil or
// there would be more than maxGateLits.
func cross(a, b []string) []string { return product(a, b, maxGateLits) }

// topAtoms returns where each atom of expr's top level starts (a
// character or escape, a class, a group, each with its repetition), or
// nil when expr is not a plain sequence: an alternation at the top, a
// flag group there ("(?i)" changes what follows), \Q quoting, or
// brackets that do not close.
func topAtoms(expr string) []int {
	var starts []int
	for i := 0; i < len(expr); {
		starts = append(starts, i)
		var n int
		switch expr[i] {
		case '|', ')', '*', '+', '?', '{':
			return nil
		case '(':
			if flagGroup(expr[i:]) {
				return nil
			}
			n = groupLen(expr[i:])
		default:
			n = unitLen(expr[i:])
		}
		if n == 0 {
			return nil
		}
		i += n
		i += repeatLen(expr[i:])
	}
	return starts
}

// unitLen is the length of the escape, the class or the character s
// starts with, 0 when the escape or class is malformed.
func unitLen(s string) int {
	switch s[0] {
	case '\\':
		return escapeLen(s)
	case '[':
		return classLen(s)
	}
	_, n := utf8.DecodeRuneInString(s)
	return n
}

// escapeLen is the length of the escape s starts with: \x41, \x{263a},
// \pL, \p{Greek}, an octal code (\072), or a backslash and one
// character; 0 for \Q (quoting).
func escapeLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case 'Q':
		return 0
	case '0', '1', '2', '3', '4', '5', '6', '7':
		// An octal code: up to three digits (\1 alone does not parse).
		n := 2
		for n < len(s) && n < 4 && s[n] >= '0' && s[n] <= '7' {
			n++
		}
		return n
	case 'x', 'p', 'P':
		if len(s) > 2 && s[2] == '{' {
			if e := strings.IndexByte(s, '}'); e > 0 {
				return e + 1
			}
			return 0
		}
		if s[1] == 'x' {
			return min(len(s), 4)
		}
		return min(len(s), 3)
	}
	_, n := utf8.DecodeRuneInString(s[1:])
	return 1 + n
}

// classLen is the length of the class s starts with ("[...]"), 0 when it
// does not close: a ']' first (after '^') is a member, as are escapes
// and [:name:] sets.
func classLen(s string) int {
	i := 1
	if i < len(s) && s[i] == '^' {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++
	}
	for i < len(s) {
		switch {
		case s[i] == '\\':
			n := escapeLen(s[i:])
			if n == 0 {
				return 0
			}
			i += n
		case strings.HasPrefix(s[i:], "[:"):
			e := strings.Index(s[i+2:], ":]")
			if e < 0 {
				return 0
			}
			i += e + 4
		case s[i] == ']':
			return i + 1
		default:
			i++
		}
	}
	return 0
}

// groupLen is the length of the group s starts with, 0 when it does not
// close.
func groupLen(s string) int {
	depth := 0
	for i := 0; i < len(s); {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		n := unitLen(s[i:])
		if n == 0 {
			return 0
		}
		i += n
	}
	return 0
}

// flagGroup reports whether s starts with a group that sets flags for
// what follows it ("(?i)", "(?-s)"), not one that holds them ("(?i:…)").
func flagGroup(s string) bool {
	if !strings.HasPrefix(s, "(?") {
		return false
	}
	for i := 2; i < len(s); i++ {
		switch s[i] {
		case ')':
			return true
		case ':', 'P', '<':
			return false
		}
	}
	return false
}

// repeatLen is the length of the repetition s starts with ("*", "+?",
// "{2,5}"), 0 when there is none.
func repeatLen(s string) int {
	n := 0
	switch {
	case s == "":
		return 0
	case s[0] == '*' || s[0] == '+' || s[0] == '?':
		n = 1
	case s[0] == '{':
		e := strings.IndexByte(s, '}')
		if e < 0 {
			return 0
		}
		for _, c := range s[1:e] {
			if (c < '0' || c > '9') && c != ',' {
				return 0 // a literal '{'
			}
		}
		n = e + 1
	default:
		return 0
	}
	if n < len(s) && s[n] == '?' {
		n++ // lazy
	}
	return n
}

// literalSet lists the texts re matches when it matches only literals,
// case-sensitively: a literal, an alternation or a sequence of them, a
// group around one (nil otherwise, or when there are too many).
func literalSet(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if lit, ok := plainLiteral(re); ok {
			return []string{lit}
		}
		return nil
	case syntax.OpCapture:
		return literalSet(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			set := literalSet(s)
			if set == nil || len(out)+len(set) > maxGateLits {
				return nil
			}
			out = append(out, set...)
		}
		return out
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			if out = cross(out, literalSet(s)); out == nil {
				return nil
			}
		}
		return out
	}
	return nil
}

func allLonger(lits []string, n int) bool {
	for _, l := range lits {
		if len(l) < n {
			return false
		}
	}
	return true
}

// gateScan finds, for places that come in order (an anchored rule's
// places in one window), the first place at or after each where the rest
// of the expression matches, reading up to b as the whole expression does
// from a place. The rest starts with a literal, so no assertion in it
// looks before where it starts, and its leftmost match in str[p:b] starts
// at the first place at or after p where it matches: one search from p,
// as long as the text (searching from each spelling of the literal in
// turn read "-u-u-u…" again from each, 8.7 s on 32 KB).
type gateScan struct {
	g    *gate
	str  string
	b    int
	at   int  // the last place found, by a search from at most the place asked about; -1: none yet
	none bool // a search found none
}

func newGateScan(g *gate, str string, b int) gateScan {
	return gateScan{g: g, str: str, b: b, at: -1}
}

// first returns the first place at or after p where the rest of the
// expression matches, or -1. Calls come with p in order.
func (gs *gateScan) first(p int) int {
	if gs.at >= p {
		return gs.at
	}
	if gs.none {
		return -1
	}
	loc := gs.g.rest.FindStringIndex(gs.str[p:gs.b])
	if loc == nil {
		gs.none = true
		return -1
	}
	gs.at = p + loc[0]
	return gs.at
}
