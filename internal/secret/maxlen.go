package secret

import (
	"regexp/syntax"
	"unicode"
)

// maxLen is the most bytes a match of re can span, or -1 when unbounded.
func maxLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				n += foldLen(r) // (?i)k matches the Kelvin sign, 3 bytes
			} else {
				n += utf8Len(r)
			}
		}
		return n
	case syntax.OpCharClass:
		// The class's widest rune (its ranges hold every case folding).
		n := 0
		for i := 1; i < len(re.Rune); i += 2 {
			n = max(n, utf8Len(re.Rune[i]))
		}
		return n
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 4
	case syntax.OpCapture:
		return maxLen(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		return -1
	case syntax.OpQuest:
		return maxLen(re.Sub[0])
	case syntax.OpRepeat:
		if re.Max < 0 {
			return -1
		}
		n := maxLen(re.Sub[0])
		if n < 0 {
			return -1
		}
		return n * re.Max
	case syntax.OpConcat:
		total := 0
		for _, s := range re.Sub {
			n := maxLen(s)
			if n < 0 {
				return -1
			}
			total += n
		}
		return total
	case syntax.OpAlternate:
		best := 0
		for _, s := range re.Sub {
			n := maxLen(s)
			if n < 0 {
				return -1
			}
			best = max(best, n)
		}
		return best
	}
	return -1
}

// maxNewlines is the most '\n' bytes a match of re can hold, or -1 when
// unbounded: a match from a place ends before the line end after that
// many more (curl-auth-header's spans at most six lines).
func maxNewlines(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpAnyCharNotNL:
		return 0
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if r == '\n' {
				n++
			}
		}
		return n
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return 1
			}
		}
		return 0
	case syntax.OpAnyChar:
		return 1
	case syntax.OpCapture, syntax.OpQuest:
		return maxNewlines(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		n := maxNewlines(re.Sub[0])
		switch {
		case n == 0:
			return 0
		case n < 0 || re.Op != syntax.OpRepeat || re.Max < 0:
			return -1
		}
		return n * re.Max
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, s := range re.Sub {
			n := maxNewlines(s)
			if n < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total
	}
	return -1
}

func utf8Len(r rune) int {
	switch {
	case r < 0x80:
		return 1
	case r < 0x800:
		return 2
	case r < 0x10000:
		return 3
	}
	return 4
}

// foldLen is the most bytes a rune that r matches case-insensitively takes.
func foldLen(r rune) int {
	n := utf8Len(r)
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		n = max(n, utf8Len(f))
	}
	return n
}
