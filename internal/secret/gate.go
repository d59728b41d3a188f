package secret

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// A gate is what an anchored rule's match must hold after a stretch of
// any length: gitleaks' curl rules read "curl", then anything on up to
// five lines, then "-H" or "--header" (or "-u", "--user") and what the
// option says. Run from each place of "curl", the expression reads every
// line after it in search of the option, the kilobytes of a long
// command's output included, and mostly matches nowhere: no option there,
// or one with no credential ("-H 'Content-Type: …'"). On a 200 MB store of
// real transcripts that took 576 runs, 18 µs each for curl-auth-header,
// 9 ms of the 23 the rules' expressions took, for no match. A gate finds
// the option's spellings first and
// runs the rest of the expression from each, anchored: a match from a
// place holds one of them where the rest matches, so a place before none
// of them starts no match.
type gate struct {
	lits []string       // the spellings of the literal the rest starts with
	tail *regexp.Regexp // the rest of the expression, anchored
}

// maxGateLits bounds how many spellings a gate's literal has.
const maxGateLits = 8

// gateOf returns the gate of the expression re (parsed), or nil: the
// expression is a sequence in which some part may span any length, and
// after the first such part comes a run of literals (or alternations of
// literals, not case-folded) whose spellings are each 2 bytes or longer:
// the first such run is the gate's.
func gateOf(re *syntax.Regexp) *gate {
	if re.Op != syntax.OpConcat {
		return nil
	}
	subs := re.Sub
	first := -1
	for i, s := range subs {
		if maxLen(s) < 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return nil
	}
	for j := first + 1; j < len(subs); j++ {
		lits := []string{""}
		k := j
		for ; k < len(subs); k++ {
			set := literalSet(subs[k])
			if set == nil || len(lits)*len(set) > maxGateLits {
				break
			}
			var next []string
			for _, a := range lits {
				for _, b := range set {
					next = append(next, a+b)
				}
			}
			lits = next
		}
		if k == j || !allLonger(lits, 2) {
			continue
		}
		rest := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: subs[j:]}
		tail, err := regexp.Compile(`^(?:` + rest.String() + `)`)
		if err != nil {
			return nil
		}
		return &gate{lits: lits, tail: tail}
	}
	return nil
}

// literalSet lists the texts re matches when it matches only literals,
// case-sensitively: a literal, an alternation or a sequence of them, a
// group around one (nil otherwise, or when there are too many).
func literalSet(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		return []string{string(re.Rune)}
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
			set := literalSet(s)
			if set == nil || len(out)*len(set) > maxGateLits {
				return nil
			}
			var next []string
			for _, a := range out {
				for _, b := range set {
					next = append(next, a+b)
				}
			}
			out = next
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

// gateScan finds, in order, the places in str[:b] where one of a gate's
// spellings starts and the rest of its expression matches (reading up to
// b, as the whole expression does from a place). One gateScan serves the
// places of one window, which come in order: each spelling is searched
// for once over the window however many places there are.
type gateScan struct {
	g    *gate
	str  string
	b    int
	next []int // per spelling: where it next occurs at or after from; -1: nowhere
	from int   // where the search goes on
	at   int   // the last place found where the rest matches; -1: none yet
	done bool  // none at or after from
}

func newGateScan(g *gate, str string, b int) gateScan {
	gs := gateScan{g: g, str: str, b: b, at: -1, next: make([]int, len(g.lits))}
	for k := range gs.next {
		gs.next[k] = -2 // not searched yet
	}
	return gs
}

// first returns the first place at or after p where a spelling starts and
// the rest matches, or -1. Calls come with p in order.
func (gs *gateScan) first(p int) int {
	if gs.at >= p {
		return gs.at
	}
	if gs.done {
		return -1
	}
	gs.from = max(gs.from, p)
	for {
		q := -1
		for k, lit := range gs.g.lits {
			if n := gs.next[k]; n == -2 || n >= 0 && n < gs.from {
				if i := strings.Index(gs.str[gs.from:gs.b], lit); i >= 0 {
					gs.next[k] = gs.from + i
				} else {
					gs.next[k] = -1
				}
			}
			if n := gs.next[k]; n >= 0 && (q < 0 || n < q) {
				q = n
			}
		}
		if q < 0 {
			gs.done = true
			return -1
		}
		gs.from = q + 1
		if gs.g.tail.MatchString(gs.str[q:gs.b]) {
			gs.at = q
			return q
		}
	}
}
