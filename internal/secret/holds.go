package secret

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// A rule's places are the keywords it names, and Scan looks for its
// matches in windows around them: enough when every match holds one of
// the keywords. A rule whose matches need not (airtable-personnal-access-
// token's "pat…" token, keyword "airtable"; facebook-access-token's) has
// its expression run over the whole text when a keyword occurs anywhere
// in it, as gitleaks does (Rule.keywordless).

// maxLang bounds the sets of strings langInfo keeps.
const maxLang = 256

// langInfo is what matchHolds knows of the matches of a part of an
// expression, ASCII lowercased: every string it matches (exact, when they
// are few and ASCII), strings one of which each match starts with
// (prefix) and ends with (suffix; {""} when nothing is known), and
// whether each match holds a keyword.
type langInfo struct {
	exact          []string
	prefix, suffix []string
	holds          bool
}

// matchHolds reports whether every match of re holds one of keywords
// (lowercase), ASCII case-insensitively, as far as the literals and small
// classes of re show ("xox[os]-", "(?:sk|rk)_(?:test|live)",
// "linked[_-]?in", and keywords the parser's factoring splits, as
// "A(?:KIA|SIA)"). A Kelvin sign or long s matched by a case-folded k or
// s is not the keyword's letter: the keyword finder would not see it
// there either.
func matchHolds(re *syntax.Regexp, keywords []string) bool {
	return infoOf(re, keywords).holds
}

// unknown is the set {""}: nothing known of how a match starts or ends.
// Never written: union clones, concatLang makes a new slice.
var unknown = []string{""}

// infoOf is what re's syntax shows of its matches (langInfo), holds
// read against kws.
func infoOf(re *syntax.Regexp, kws []string) langInfo {
	exactly := func(lang []string) langInfo {
		if lang == nil {
			return langInfo{prefix: unknown, suffix: unknown}
		}
		return langInfo{exact: lang, prefix: lang, suffix: lang, holds: allHold(lang, kws)}
	}
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return exactly(unknown)
	case syntax.OpLiteral:
		b := make([]byte, 0, len(re.Rune))
		for _, c := range re.Rune {
			if c >= utf8.RuneSelf {
				return exactly(nil)
			}
			b = append(b, lower[c])
		}
		return exactly([]string{string(b)})
	case syntax.OpCharClass:
		return exactly(classLang(re))
	case syntax.OpCapture:
		return infoOf(re.Sub[0], kws)
	case syntax.OpPlus, syntax.OpRepeat:
		in := infoOf(re.Sub[0], kws)
		if re.Op == syntax.OpRepeat && re.Min == re.Max && re.Max <= 3 && in.exact != nil {
			lang := unknown
			for range re.Min {
				lang = concatLang(lang, in.exact)
			}
			return exactly(lang)
		}
		if re.Op == syntax.OpPlus || re.Min >= 1 {
			// At least once: its starts, ends and keyword, not its strings.
			return langInfo{prefix: in.prefix, suffix: in.suffix, holds: in.holds}
		}
	case syntax.OpQuest:
		if in := infoOf(re.Sub[0], kws); in.exact != nil {
			return exactly(union(unknown, in.exact))
		}
	case syntax.OpConcat:
		acc := exactly(unknown)
		for _, sub := range re.Sub {
			acc = concatInfo(acc, infoOf(sub, kws), kws)
		}
		return acc
	case syntax.OpAlternate:
		// nil once too many (or unknown): never read as "none yet".
		exact, prefix, suffix := []string{}, []string{}, []string{}
		out := langInfo{holds: true}
		for _, sub := range re.Sub {
			in := infoOf(sub, kws)
			exact = unionKnown(exact, in.exact)
			prefix = unionKnown(prefix, in.prefix)
			suffix = unionKnown(suffix, in.suffix)
			out.holds = out.holds && in.holds
		}
		if exact != nil {
			return exactly(exact)
		}
		out.prefix, out.suffix = orUnknown(prefix), orUnknown(suffix)
		return out
	}
	return exactly(nil)
}

// concatInfo is the info of a part a followed by a part b: it holds a
// keyword when one does, or when every end of a followed by every start
// of b spells one.
func concatInfo(a, b langInfo, kws []string) langInfo {
	out := langInfo{holds: a.holds || b.holds || allHold(concatLang(a.suffix, b.prefix), kws)}
	if a.exact != nil && b.exact != nil {
		out.exact = concatLang(a.exact, b.exact)
	}
	if out.exact != nil {
		out.prefix, out.suffix = out.exact, out.exact
		out.holds = out.holds || allHold(out.exact, kws)
		return out
	}
	out.prefix, out.suffix = a.prefix, b.suffix
	if a.exact != nil {
		out.prefix = orUnknown(concatLang(a.exact, b.prefix))
	}
	if b.exact != nil {
		out.suffix = orUnknown(concatLang(a.suffix, b.exact))
	}
	return out
}

// classLang is the characters of a class, lowercased, when they are at
// most 64 and ASCII (the Kelvin sign and the long s, a case-folded class
// holds them, passed over: see matchHolds); else nil.
func classLang(re *syntax.Regexp) []string {
	var out []string
	for i := 0; i+1 < len(re.Rune); i += 2 {
		lo, hi := re.Rune[i], re.Rune[i+1]
		if lo >= utf8.RuneSelf {
			if lo == hi && (lo == longS || lo == kelvinSign) {
				continue
			}
			return nil
		}
		if hi >= utf8.RuneSelf {
			return nil
		}
		for c := lo; c <= hi; c++ {
			if s := string(rune(lower[c])); !slices.Contains(out, s) {
				out = append(out, s)
			}
			if len(out) > 64 {
				return nil
			}
		}
	}
	return out
}

// allHold reports whether every string of lang (not empty) holds one of
// keywords.
func allHold(lang, keywords []string) bool {
	for _, s := range lang {
		if !containsAny(s, keywords) {
			return false
		}
	}
	return len(lang) > 0
}

// containsAny reports whether s holds one of subs.
func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// concatLang is every string of a followed by one of b, nil when they
// would be more than maxLang (or a or b is nil).
func concatLang(a, b []string) []string { return product(a, b, maxLang) }

// product is every string of a followed by one of b, nil when they would
// be more than limit (or a or b is nil).
func product(a, b []string, limit int) []string {
	if a == nil || b == nil || len(a)*len(b) > limit {
		return nil
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

// unionKnown is union, nil when a is (too many already).
func unionKnown(a, b []string) []string {
	if a == nil {
		return nil
	}
	return union(a, b)
}

// union is a's strings and b's not in a, nil when more than maxLang (or
// b is nil: nothing known).
func union(a, b []string) []string {
	if b == nil {
		return nil
	}
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) > maxLang {
		return nil
	}
	return out
}

func orUnknown(lang []string) []string {
	if lang == nil {
		return unknown
	}
	return lang
}
