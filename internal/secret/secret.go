// Package secret finds secrets (API keys, tokens, private keys) in decoded text, with gitleaks' default rules.
//
// The rules are gitleaks' default rule file (MIT, see LICENSE.gitleaks),
// converted once to gitleaks.json by gen_rules.py. The detection follows
// gitleaks' own: a lowercase keyword prefilter per text, then only the
// rules whose keywords occur run their expression; the secret is the
// rule's secretGroup (else the first non-empty group, else the match); a
// secret at or under the rule's entropy is dropped, and so is one that the
// global or the rule's allowlists allow (regexes, stopwords).
package secret

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/ccvet/ccvet/internal/jsontree"
)

//go:embed gitleaks.json
var rulesJSON []byte

// Rule is one detection rule.
type Rule struct {
	ID          string // gitleaks' id, e.g. "aws-access-token"
	Name        string // readable, e.g. "AWS access key"
	Description string

	expr      string // the expression, compiled at first use (compile)
	allowJSON []allowlistJSON
	once      sync.Once
	err       error

	re          *regexp.Regexp
	secretGroup int
	entropy     float64
	keywords    []string
	allow       []*allowlist
	generic     bool // the catch-all generic-api-key: a specific rule's match wins over it
	assign      bool // a "name = value" rule (assignShape): only keywords followed by an assignment count
	// assignKeys are the keywords of the name group of a rule that is
	// "name = value" or something else (see branchAssignKeys): a place of
	// one of them counts only when an assignment follows, as in an
	// assign rule.
	assignKeys map[string]bool
	// nameExtra is, for a keyword of a name = value rule whose name group
	// goes on past it ("snyk" in snyk[_.-]?(?:api|oauth)?..token), how
	// many bytes it may go on: the assignment is looked for from each of
	// those ends. -1: unknown, every place counts. Absent: 0. Set with
	// lead (leadReady).
	nameExtra map[string]int
	span      int // the longest match in bytes, -1 when unbounded
	lines     int // the most '\n' bytes a match holds, -1 when unbounded
	// atName, for a "name = value" rule, is its expression without the
	// lazy name prefix, anchored: it runs from each keyword that an
	// assignment follows (assignsAfter), and the match is extended back
	// over the name as the prefix would take it.
	atName *regexp.Regexp
	// names, for a "name = value" rule whose keywords are in its value
	// (lob-api-key: "test_", "live_"), are the names its expression asks
	// for ("lob"): the keywords only say the rule may match, its places
	// are where a name is followed by an assignment.
	names []string
	// distinct, for the generic rule, is how many distinct bytes its
	// value needs to have more entropy than the rule asks (distinctRun).
	distinct int
	// anchored: every match starts with one of the keywords (jwt's
	// "\\b(ey…", private-key's "-----BEGIN"); wordStart: and the
	// expression asks for a word boundary before it.
	anchored, wordStart bool
	// atPlace, for an anchored rule, is its expression anchored ("^"): it
	// runs from each place in a window, not over the whole window (see
	// scanAtPlaces). Nil where the word boundary before a keyword that
	// starts with a byte not a word byte would read differently at the
	// start of a text.
	atPlace *regexp.Regexp
	// gate, for a rule with atPlace, is what its matches hold after a
	// stretch of any length (gate.go); nil for most rules.
	gate *gate
	// lead, for an anchored rule, is what its matches start with; for a
	// rule with names, what its value starts with when every keyword
	// starts that value (lob-api-key's "test_" then 35 hex digits): a
	// keyword place where it cannot start is dropped (lead.go).
	lead lead
	// leadOnce sets lead (leadReady), apart from compile: most keyword
	// places a lead drops need no expression compiled; leadBad says the
	// expression does not parse.
	leadOnce sync.Once
	leadBad  bool
	// keywordless says a match need not hold a keyword (matchHolds):
	// the expression then runs over the whole text a keyword occurs in,
	// not in windows around the keywords. Set with lead.
	keywordless bool
	// prefix, for an anchored rule, is the literal (case-sensitive) every
	// match starts with, "" when there is none: "SK" for twilio-api-key,
	// whose keyword "sk" is in "task" and "ask".
	prefix string
	// needs are sets of literals (case-sensitive): every match holds one
	// literal of each set ("-H" or "--header" for curl-auth-header).
	needs [][]string
	// runs are the runs of a class every match holds ("[a-zA-Z0-9]{40}"):
	// a window without such a run holds no match (mayRun).
	runs []reqRun
	// folds, for a rule whose matches are unbounded (its windows take 8
	// KB after a place), are sets of lowercase literals every match holds
	// one of, ASCII case-insensitively, other than its keywords
	// (curl-auth-header: "authorization:", "key" or "token"): an ASCII
	// window without one holds no match (mayFold).
	folds [][]string
}

type allowlist struct {
	and       bool
	target    string // "", "match" or "line"
	regexes   []*regexp.Regexp
	stopwords []string
	paths     bool // has path or commit conditions: never true for text alone
	// hashes are literal regexes that are sample keys, stored by length
	// and SHA-256 (gen_rules.py): a target holding such a substring
	// matches, as the literal regex did.
	hashes  map[[32]byte]bool
	hashLen []int // the distinct lengths of hashes
}

// Match is one secret found in a text.
type Match struct {
	Rule       *Rule
	Start, End int    // byte offsets of the secret in the text
	Value      string // the secret itself: never print it
}

// Fingerprint is the first 12 hex digits of the SHA-256 of m's value.
func (m Match) Fingerprint() string { return Fingerprint(m.Value) }

// Fingerprint is the first 12 hex digits of the SHA-256 of a secret: how
// reports, baselines and redactions name it without showing it.
func Fingerprint(value string) string {
	sum := sha256.Sum256([]byte(value))
	return hex.EncodeToString(sum[:6])
}

// Scanner holds a compiled rule set. It is safe for concurrent use.
type Scanner struct {
	Version string // the gitleaks version the rules come from
	Source  string // where the rule file came from
	rules   []*Rule
	global  []*allowlist
	// kw lists the distinct keywords; byKeyword the rules of each.
	kw        []string
	byKeyword [][]int
	ac        *matcher
	// oneByOne decodes and scans every string (no mayFind) and runs every
	// window (no mayMatch): the reference the tests compare with.
	oneByOne bool
	// wholeText runs each rule whose keywords occur (anywhere, as gitleaks
	// does) over the whole text: the reference for the places, the
	// windows and the anchored runs.
	wholeText bool
}

var (
	defaultOnce sync.Once
	defaultSc   *Scanner
)

// Default is the scanner of gitleaks' default rules.
func Default() *Scanner {
	defaultOnce.Do(func() {
		sc, err := parse(rulesJSON)
		if err != nil {
			panic("secret: embedded rules: " + err.Error())
		}
		defaultSc = sc
	})
	return defaultSc
}

// Rules lists the scanner's rules, in the rule file's order.
func (s *Scanner) Rules() []*Rule { return s.rules }

// Lookup finds a rule by gitleaks id.
func (s *Scanner) Lookup(id string) *Rule {
	for _, r := range s.rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

type fileJSON struct {
	Source     string          `json:"source"`
	Version    string          `json:"version"`
	Allowlists []allowlistJSON `json:"allowlists"`
	Rules      []struct {
		ID          string          `json:"id"`
		Description string          `json:"description"`
		Regex       string          `json:"regex"`
		Path        string          `json:"path"`
		SecretGroup int             `json:"secretGroup"`
		Entropy     float64         `json:"entropy"`
		Keywords    []string        `json:"keywords"`
		Allowlists  []allowlistJSON `json:"allowlists"`
	} `json:"rules"`
}

type allowlistJSON struct {
	Condition   string   `json:"condition"`
	RegexTarget string   `json:"regexTarget"`
	Regexes     []string `json:"regexes"`
	Stopwords   []string `json:"stopwords"`
	Paths       []string `json:"paths"`
	Commits     []string `json:"commits"`
	// Hashes are the literal regexes that are sample keys (gen_rules.py).
	Hashes []hashJSON `json:"hashes"`
}

type hashJSON struct {
	Length int    `json:"length"`
	SHA256 string `json:"sha256"`
}

func compileAllow(a allowlistJSON) (*allowlist, error) {
	al := &allowlist{
		and:    strings.EqualFold(a.Condition, "AND"),
		target: a.RegexTarget,
		paths:  len(a.Paths) > 0 || len(a.Commits) > 0,
	}
	for _, r := range a.Regexes {
		re, err := regexp.Compile(r)
		if err != nil {
			return nil, err
		}
		al.regexes = append(al.regexes, re)
	}
	for _, h := range a.Hashes {
		var sum [32]byte
		if n, err := hex.Decode(sum[:], []byte(h.SHA256)); err != nil || n != len(sum) || h.Length <= 0 {
			return nil, fmt.Errorf("allowlist hash %q (length %d): not a SHA-256", h.SHA256, h.Length)
		}
		if al.hashes == nil {
			al.hashes = map[[32]byte]bool{}
		}
		al.hashes[sum] = true
		if !slices.Contains(al.hashLen, h.Length) {
			al.hashLen = append(al.hashLen, h.Length)
		}
	}
	for _, w := range a.Stopwords {
		al.stopwords = append(al.stopwords, strings.ToLower(w))
	}
	return al, nil
}

func parse(data []byte) (*Scanner, error) {
	var doc fileJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	s := &Scanner{Version: doc.Version, Source: doc.Source}
	for _, a := range doc.Allowlists {
		al, err := compileAllow(a)
		if err != nil {
			return nil, err
		}
		s.global = append(s.global, al)
	}
	kwIndex := map[string]int{}
	for _, rj := range doc.Rules {
		// A rule limited to some file names (.php, .tf, nuget.config, ...)
		// never applies to Claude Code's files, and one with no
		// expression only names files.
		if rj.Regex == "" || rj.Path != "" || len(rj.Keywords) == 0 {
			continue
		}
		expr, err := amend(rj.ID, rj.Regex)
		if err != nil {
			return nil, err
		}
		rj.Regex = expr
		r := &Rule{
			ID: rj.ID, Name: Name(rj.ID), Description: rj.Description,
			expr: rj.Regex, allowJSON: rj.Allowlists,
			secretGroup: rj.SecretGroup, entropy: rj.Entropy,
			generic: rj.ID == "generic-api-key",
			assign:  assignRule(rj.Regex, rj.Keywords),
		}
		if r.generic && r.assign && r.entropy > 0 && strings.HasPrefix(rj.Regex, "(?i)") && strings.Contains(rj.Regex, genericValue) {
			// Its value is of [\\w.=+/-] (or [a-z0-9+/] case-folded: the
			// Kelvin sign and the long s, which distinctRun lets through).
			r.distinct = int(math.Floor(math.Exp2(r.entropy))) + 1
		}
		if !r.assign {
			if names := nameLiterals(rj.Regex); names != nil {
				r.assign, r.names = true, names
			}
		}
		if !r.assign {
			r.assignKeys = branchAssignKeys(rj.Regex, rj.Keywords)
		}
		r.anchored, r.wordStart = anchoredOn(rj.Regex, rj.Keywords)
		ri := len(s.rules)
		s.rules = append(s.rules, r)
		for _, k := range rj.Keywords {
			k = strings.ToLower(k)
			r.keywords = append(r.keywords, k)
			ki, ok := kwIndex[k]
			if !ok {
				if len(k) < 2 {
					return nil, fmt.Errorf("rule %s: keyword %q shorter than 2 bytes", rj.ID, k)
				}
				ki = len(s.kw)
				kwIndex[k] = ki
				s.kw = append(s.kw, k)
				s.byKeyword = append(s.byKeyword, nil)
			}
			s.byKeyword[ki] = append(s.byKeyword[ki], ri)
		}
	}
	s.ac = newMatcher(s.kw, s.follows())
	return s, nil
}

// follows reads, for each keyword shorter than the 4 bytes the SIMD
// finder compares, the bytes that may follow it where a match of one of
// its rules can start (from the rules' leads: "sk" is twilio-api-key's
// "SK" then 32 hex digits, "s." vault-service-token's "s." then 24 of
// [a-z0-9], "ey" jwt's "ey" then 17 of [a-zA-Z0-9]): the keyword pass
// reports no other place of it, where the keyword pass would find a
// place that lead drops (keywords) by the dozen per kilobyte ("task",
// "files.", "key"). A keyword gets none when one of its rules runs
// without a lead (nil: any byte).
func (s *Scanner) follows() []*follow {
	out := make([]*follow, len(s.kw))
	for ki, k := range s.kw {
		if len(k) >= 4 {
			continue
		}
		f := &follow{n: len(k)}
		for _, ri := range s.byKeyword[ki] {
			r := s.rules[ri]
			if !r.leadReady() || r.keywordless || r.lead == nil || !r.anchored && r.names == nil {
				f = nil
				break
			}
			for j := len(k); j < 4; j++ {
				set := r.lead.at(k, j)
				for w := range set {
					f.at[j][w] |= set[w]
				}
			}
		}
		if f == nil {
			continue
		}
		// A rune beyond ASCII the lead lets through shifts what follows
		// it by its length: every offset after it takes bytes from 0x80
		// on too (the rune's own).
		for j := len(k) + 1; j < 4; j++ {
			if f.at[j-1][2]|f.at[j-1][3] != 0 {
				f.at[j].addHigh()
			}
		}
		for j := len(k); j < 4; j++ {
			if f.at[j] != anyByte {
				f.last = j
			}
		}
		if f.last > 0 {
			out[ki] = f
		}
	}
	return out
}

// unescapeLit undoes the escapes of literal punctuation in an expression.
var unescapeLit = strings.NewReplacer(`\.`, ".", `\-`, "-", `\_`, "_")

// anchoredOn reports whether every match of expr starts with one of the
// keywords (read from the expression's text: after flags, a word boundary
// and group openings, each keyword must be a literal prefix), and whether
// a word boundary comes first.
func anchoredOn(expr string, keywords []string) (anchored, wordStart bool) {
	rest := strings.TrimPrefix(expr, "(?i)")
	if strings.HasPrefix(rest, `\b`) {
		wordStart, rest = true, rest[2:]
	}
	for {
		switch {
		case strings.HasPrefix(rest, "(?:"):
			rest = rest[3:]
			continue
		case strings.HasPrefix(rest, "("):
			if !strings.HasPrefix(rest, "(?") {
				rest = rest[1:]
				continue
			}
		}
		break
	}
	// Each keyword must start the expression, or one of its alternatives
	// at the outer group ("(?:hvs\\.…|s\\.…)").
	lr := unescapeLit.Replace(strings.ToLower(rest))
	outer, depth := lr, 0
	for i, c := range lr {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth < 0 {
			outer = lr[:i]
			break
		}
	}
	for _, k := range keywords {
		if strings.ContainsAny(k, `\+*?()|[]{}^$`) {
			return false, false
		}
	}
	// Every alternative must start with a keyword (after a word boundary
	// or group openings): an alternative of a nested group does not count
	// (okta-access-token's "[\\w.-]{0,50}?(?i:…(?-i:[Oo]kta|OKTA)…" is not
	// anchored).
	ok := true
	for n, alt := range topAlternatives(outer) {
		if n > 0 {
			alt = strings.TrimPrefix(alt, `\b`)
			for strings.HasPrefix(alt, "(?:") || strings.HasPrefix(alt, "(") && !strings.HasPrefix(alt, "(?") {
				alt = alt[strings.IndexByte(alt, '(')+1:]
				alt = strings.TrimPrefix(alt, "?:")
			}
		}
		starts := false
		for _, k := range keywords {
			starts = starts || strings.HasPrefix(alt, strings.ToLower(k))
		}
		ok = ok && starts
	}
	if !ok && !altsStartWithKeywords(lr, outer, keywords) {
		return false, false
	}
	return true, wordStart
}

// topAlternatives splits an expression's text at its '|' outside groups
// and classes.
func topAlternatives(expr string) []string {
	var alts []string
	depth, from := 0, 0
	for i := 0; i < len(expr); {
		switch expr[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				alts = append(alts, expr[from:i])
				from = i + 1
			}
		}
		// An escape or a class is one step: a bracket or a bar in it is
		// none of the above.
		i += max(unitLen(expr[i:]), 1)
	}
	return append(alts, expr[from:])
}

// altsStartWithKeywords reports whether lr starts with a group of plain
// alternatives (outer, closed by ')') and a literal after it, each
// alternative with that literal starting with one of the keywords:
// authress-service-client-access-key's "(?:sc|ext|scauth|authress)_" and
// its keywords "sc_", "ext_", "scauth_", "authress_".
func altsStartWithKeywords(lr, outer string, keywords []string) bool {
	if len(outer) >= len(lr) || lr[len(outer)] != ')' {
		return false
	}
	plain := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' }
	rest := lr[len(outer)+1:]
	n := 0
	for n < len(rest) && plain(rest[n]) {
		n++
	}
	if n < len(rest) && strings.ContainsRune("?*+{", rune(rest[n])) && n > 0 {
		n-- // the last byte is quantified
	}
	suffix := rest[:n]
	for _, alt := range strings.Split(outer, "|") {
		if alt == "" {
			return false
		}
		for i := 0; i < len(alt); i++ {
			if !plain(alt[i]) {
				return false
			}
		}
		starts := false
		for _, k := range keywords {
			if strings.HasPrefix(alt+suffix, strings.ToLower(k)) {
				starts = true
			}
		}
		if !starts {
			return false
		}
	}
	return true
}

// compile compiles r's expressions and allowlists, once: most rules never
// run in a scan (their keywords do not occur), and compiling all 217 takes
// 100 ms.
func (r *Rule) compile() error {
	r.once.Do(func() {
		r.span, r.lines = -1, -1
		re, err := regexp.Compile(r.expr)
		if err != nil {
			r.err = fmt.Errorf("rule %s: %w", r.ID, err)
			return
		}
		r.re = re
		if r.anchored {
			r.prefix, _ = re.LiteralPrefix()
			atStart := true
			for _, k := range r.keywords {
				atStart = atStart && (!r.wordStart || isWord(k[0]))
			}
			if atStart {
				if re, err := regexp.Compile(`^(?:` + r.expr + `)`); err == nil {
					r.atPlace = re
				}
			}
		}
		if p, err := syntax.Parse(r.expr, syntax.Perl); err == nil {
			r.span = maxLen(p)
			if r.atPlace != nil {
				r.gate = gateOf(r.expr)
			}
			r.lines = maxNewlines(p)
			r.needs = needs(p)
			r.runs = reqRuns(p, nil)
			if r.span < 0 {
				r.folds = foldSets(p, r.keywords, r.needs)
			}
		}
		r.leadReady()
		if r.assign && strings.HasPrefix(r.expr, namePrefix) {
			if re, err := regexp.Compile(`^(?i)` + strings.TrimPrefix(r.expr, namePrefix)); err == nil {
				r.atName = re
			}
		}
		for _, a := range r.allowJSON {
			al, err := compileAllow(a)
			if err != nil {
				r.err = fmt.Errorf("rule %s: %w", r.ID, err)
				return
			}
			r.allow = append(r.allow, al)
		}
	})
	return r.err
}

// leadReady sets r.lead, r.keywordless and r.nameExtra, once, from r's
// parsed expression without compiling it: the keyword places of rules
// whose keywords are common ("s.", "sk", "test_") are mostly dropped by
// their lead, and compiling a rule's expressions costs 100 µs or more
// (parsing every name group when the rules are read added 0.4 ms to every
// run). It reports false when the expression does not parse (compile
// then fails too).
func (r *Rule) leadReady() bool {
	r.leadOnce.Do(func() {
		if r.assign || r.assignKeys != nil {
			r.nameExtra = nameExtra(r.expr, r.keywords)
		}
		p, err := syntax.Parse(r.expr, syntax.Perl)
		if err != nil {
			r.leadBad = true
			return
		}
		if r.anchored {
			r.lead = leadOf(p)
		}
		if r.names != nil {
			r.lead = valueLead(r.expr, r.keywords)
		}
		r.keywordless = !matchHolds(p, r.keywords)
	})
	return !r.leadBad
}

// wholeTextOf reports whether r's expression runs over the whole text its
// keywords occur in: in s's whole-text mode, or when a match of r need
// not hold a keyword.
func (s *Scanner) wholeTextOf(r *Rule) bool {
	return s.wholeText || r.leadReady() && r.keywordless
}

// needs lists the sets of literals every match of re holds one of: a
// literal (not case-folded) in a sequence, or in each alternative of an
// alternation in a sequence.
func needs(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpCapture:
		return needs(re.Sub[0])
	case syntax.OpPlus:
		return needs(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return needs(re.Sub[0])
		}
	case syntax.OpLiteral:
		if lit, ok := plainLiteral(re); ok {
			return [][]string{{lit}}
		}
	case syntax.OpConcat:
		var out [][]string
		for i, sub := range re.Sub {
			// A literal then alternatives each starting with a literal
			// ("-" then "H" or "-header"): the set of the joined literals.
			if lit, ok := plainLiteral(sub); ok && i+1 < len(re.Sub) {
				if set := firstLiterals(re.Sub[i+1]); set != nil {
					for k := range set {
						set[k] = lit + set[k]
					}
					out = append(out, set)
					continue
				}
			}
			out = append(out, needs(sub)...)
		}
		return out
	case syntax.OpAlternate:
		var set []string
		for _, sub := range re.Sub {
			n := needs(sub)
			if len(n) == 0 {
				return nil
			}
			set = append(set, n[0]...)
		}
		return [][]string{set}
	}
	return nil
}

// plainLiteral returns re's text when re is a literal not case-folded
// whose bytes are what it matches: not one holding U+FFFD, which an
// expression matches at any byte that is not UTF-8 (a custom rule's
// "\x{FFFD}").
func plainLiteral(re *syntax.Regexp) (string, bool) {
	if re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase == 0 && len(re.Rune) > 0 && !slices.Contains(re.Rune, utf8.RuneError) {
		return string(re.Rune), true
	}
	return "", false
}

// firstLiterals returns, for an alternation (or a capture of one) each of
// whose alternatives starts with a literal not case-folded, those
// literals; else nil.
func firstLiterals(re *syntax.Regexp) []string {
	if re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpAlternate {
		return nil
	}
	var set []string
	for _, sub := range re.Sub {
		first := sub
		if first.Op == syntax.OpConcat && len(first.Sub) > 0 {
			first = first.Sub[0]
		}
		lit, ok := plainLiteral(first)
		if !ok {
			return nil
		}
		set = append(set, lit)
	}
	return set
}

// reqRun is a run of at least min bytes each in a class: in, for an
// ASCII byte; a byte of 0x80 and above counts as in unless the class is
// ascii (it may be part of a character of the class, and a character
// takes at least one byte).
type reqRun struct {
	in  [128]bool
	min int
	// ascii: the class holds no character beyond ASCII, so a byte of
	// 0x80 and above ends a run (one does when case-folded: the Kelvin
	// sign, the long s).
	ascii bool
}

// minRun is the shortest run reqRuns keeps: shorter ones are everywhere;
// minNarrowRun the shortest of a class of at most 16 characters (digits,
// hex digits: facebook-access-token's 15 digits, rare in prose).
const minRun, minNarrowRun = 16, 12

// reqRuns appends the runs that every match of re holds: x{n,} or
// x{n,m} with n >= minRun (minNarrowRun for a narrow class) and x a
// character class, in a sequence or a capture (not under an alternation
// or an optional part).
func reqRuns(re *syntax.Regexp, out []reqRun) []reqRun {
	switch re.Op {
	case syntax.OpCapture:
		return reqRuns(re.Sub[0], out)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			out = reqRuns(sub, out)
		}
	case syntax.OpRepeat:
		if re.Sub[0].Op == syntax.OpCharClass && (re.Min >= minRun || re.Min >= minNarrowRun && classSize(re.Sub[0]) <= 16) {
			rs := re.Sub[0].Rune
			cr := reqRun{min: re.Min, ascii: len(rs) > 0 && rs[len(rs)-1] < 0x80}
			for k := 0; k+1 < len(rs); k += 2 {
				for c := rs[k]; c <= rs[k+1] && c < 128; c++ {
					cr.in[c] = true
				}
			}
			out = append(out, cr)
		}
	}
	return out
}

// classSize is how many characters class re holds.
func classSize(re *syntax.Regexp) int {
	n := 0
	for k := 0; k+1 < len(re.Rune); k += 2 {
		n += int(re.Rune[k+1]-re.Rune[k]) + 1
	}
	return n
}

// mayRun reports whether text holds each of r.runs: when it does not, no
// match of r's expression lies in text.
func (r *Rule) mayRun(text string) bool {
	for k := range r.runs {
		cr := &r.runs[k]
		n, ok := 0, false
		for i := 0; i < len(text); i++ {
			if c := text[i]; c >= 0x80 && !cr.ascii || c < 0x80 && cr.in[c] {
				if n++; n >= cr.min {
					ok = true
					break
				}
				continue
			}
			n = 0
		}
		if !ok {
			return false
		}
	}
	return true
}

// foldNeeds lists the sets of literals (lowercase ASCII) every match of
// re holds one of, ASCII case-insensitively in a text of ASCII bytes: its
// literals, case-folded or not, in a sequence or in each alternative of
// an alternation (the alternative's longest set).
func foldNeeds(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return foldNeeds(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return foldNeeds(re.Sub[0])
		}
	case syntax.OpLiteral:
		b := make([]byte, 0, len(re.Rune))
		for _, c := range re.Rune {
			if c >= utf8.RuneSelf {
				return nil
			}
			b = append(b, lower[c])
		}
		if len(b) > 0 {
			return [][]string{{string(b)}}
		}
	case syntax.OpConcat:
		var out [][]string
		for _, sub := range re.Sub {
			out = append(out, foldNeeds(sub)...)
		}
		return out
	case syntax.OpAlternate:
		var set []string
		for _, sub := range re.Sub {
			best := longestSet(foldNeeds(sub))
			if best == nil {
				return nil
			}
			set = append(set, best...)
		}
		return [][]string{set}
	}
	return nil
}

// longestSet is the set whose shortest literal is longest, nil for none.
func longestSet(sets [][]string) []string {
	var best []string
	bestLen := 0
	for _, set := range sets {
		n := len(set[0])
		for _, lit := range set {
			n = min(n, len(lit))
		}
		if n > bestLen {
			best, bestLen = set, n
		}
	}
	return best
}

// foldSets are the sets of foldNeeds worth a search: every literal of 3
// bytes or more and in none of the rule's keywords (a window holds one),
// the set not implied by one of needs (checked by mayMatch).
func foldSets(re *syntax.Regexp, keywords []string, needs [][]string) [][]string {
	var out [][]string
sets:
	for _, set := range foldNeeds(re) {
		var lits []string
		for _, lit := range set {
			for _, k := range keywords {
				if strings.Contains(k, lit) {
					continue sets
				}
			}
			if len(lit) < 3 {
				continue sets
			}
			if !slices.Contains(lits, lit) {
				lits = append(lits, lit)
			}
		}
	needs:
		for _, need := range needs {
			for _, lit := range need {
				if !slices.Contains(lits, strings.ToLower(lit)) {
					continue needs
				}
			}
			continue sets
		}
		out = append(out, lits)
	}
	return out
}

// mayFold reports whether text holds a literal of each of r.folds,
// ASCII case-insensitively, or a byte beyond ASCII (a case-folded k or s
// may be the Kelvin sign or the long s): when it does not, r's expression
// has no match in it. low is scratch space for the lowercased text.
func (r *Rule) mayFold(text string, low *[]byte) bool {
	if len(r.folds) == 0 {
		return true
	}
	b := (*low)[:0]
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			return true
		}
		b = append(b, lower[c])
	}
	*low = b
	for _, set := range r.folds {
		ok := false
		for _, lit := range set {
			if bytes.Contains(b, []byte(lit)) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// mayMatch reports whether text holds a literal of each of r.needs: when
// it does not, r's expression has no match in it.
func (r *Rule) mayMatch(text string) bool {
	for _, set := range r.needs {
		if !containsAny(text, set) {
			return false
		}
	}
	return true
}

// Check compiles every rule: an error names the first that does not.
func (s *Scanner) Check() error {
	for _, r := range s.rules {
		if err := r.compile(); err != nil {
			return err
		}
	}
	return nil
}

// lower is ASCII lowercasing, the keyword search's: every keyword is ASCII.
var lower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// hasKeywordAt reports whether lowercase keyword k occurs in text at i.
func hasKeywordAt(text []byte, i int, k string) bool {
	if len(text)-i < len(k) {
		return false
	}
	for j := 0; j < len(k); j++ {
		if lower[text[i+j]] != k[j] {
			return false
		}
	}
	return true
}

// Candidates reports whether some keyword occurs in text: when it is
// false, Scan finds nothing.
func (s *Scanner) Candidates(text []byte) bool {
	found := false
	s.ac.each(text, func(int, int) bool { found = true; return false })
	return found
}

// scratch is one Scan's working memory, pooled.
type scratch struct {
	pos   [][]int32 // per rule: where its keywords start (gated rules: only those followed by an assignment)
	named []bool    // per rule with names: its keywords occur
	hit   []int     // rules with some position
	wins  [][2]int
	first []int  // per window: the index of its first place
	low   []byte // a window lowercased (mayFold)
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// keywords fills sc.pos with the places each rule's keywords occur.
func (s *Scanner) keywords(text []byte, sc *scratch) {
	var poor poorRun // the places share text's runs of value bytes
	s.ac.each(text, func(ki, i int) bool {
		k := s.kw[ki]
		for _, ri := range s.byKeyword[ki] {
			r := s.rules[ri]
			if s.wholeTextOf(r) {
				if !sc.named[ri] {
					sc.named[ri] = true
					sc.hit = append(sc.hit, ri)
				}
				continue
			}
			if r.wordStart && r.names == nil && i > 0 && isWord(text[i-1]) && isWord(text[i]) {
				continue // a word before an anchored rule's \b: first, as it costs least
			}
			if (r.anchored || r.names != nil) && !s.oneByOne && r.leadReady() && r.lead != nil && !r.lead.may(text, i, true) {
				continue // no match starts here
			}
			if r.names != nil {
				if len(sc.pos[ri]) == 0 && !sc.named[ri] {
					sc.named[ri] = true
					sc.hit = append(sc.hit, ri)
				}
				continue
			}
			if r.assignsOn(k) {
				need := r.distinct
				if s.oneByOne {
					need = 0
				}
				if !r.assignsAfterKeyword(text, i+len(k), k, need, true, &poor) {
					continue
				}
			}
			if len(sc.pos[ri]) == 0 {
				sc.hit = append(sc.hit, ri)
			}
			sc.pos[ri] = append(sc.pos[ri], int32(i))
		}
		return true
	})
	// Places come by where their keyword ends: put each rule's in order.
	for _, ri := range sc.hit {
		if p := sc.pos[ri]; len(p) > 1 {
			slices.Sort(p)
			sc.pos[ri] = slices.Compact(p)
		}
	}
}

// valueAfter reports whether a value of at least 10 bytes can follow an
// assignment operator whose first byte ends at i: the rest of the operator
// and up to 5 quotes, blanks or '=' (at most 8 bytes of [=:|>\x60'"\s]), then
// 10 of [\w.=+/-].
//
// When need > 0, the value must also hold need distinct bytes (see
// distinctRun; end says text ends where the text does).
func valueAfter(text []byte, i, need int, end bool, poor *poorRun) bool {
	for skip := 0; skip <= 8 && i+skip < len(text); skip++ {
		n := 0
		for p := i + skip; p < len(text) && n < 10; p++ {
			if !valueByte(text[p]) {
				if foldsToASCII(text[p:]) {
					return true // see assignsAfterNeed
				}
				break
			}
			n++
		}
		if n >= 10 && (need == 0 || poor.distinctRun(text, i+skip, need, end)) {
			return true
		}
		switch text[i+skip] {
		case '=', ':', '|', '>', '`', '\'', '"', ' ', '\t', '\n', '\r', '\f', '\v':
			continue
		}
		break
	}
	return false
}

// valueByte reports whether c may be in the first 10 bytes of a value:
// [\w.=+/-], and ':' (telegram-bot-api-token's value is up to 16 digits,
// a ':' and 35 more; sidekiq-secret's 8 hex digits, ':', 8 more).
func valueByte(c byte) bool {
	return isWord(c) || c == '.' || c == '=' || c == '+' || c == '/' || c == '-' || c == ':'
}

// distinctRun reports whether the run of value bytes (valueByte) from
// text[v] holds need distinct bytes, or a byte beyond ASCII (counted as
// enough), or reaches the end of text where end is false. A secret of
// fewer distinct code points than 2^entropy has no more entropy than the
// generic rule asks (3.5 bits: 12 of them): its value, which is part of
// that run, is dropped, so the place need not be scanned.
func distinctRun(text []byte, v, need int, end bool) bool {
	ok, _ := distinctRunTo(text, v, need, end)
	return ok
}

// distinctRunTo is distinctRun, and where its scan stopped.
func distinctRunTo(text []byte, v, need int, end bool) (bool, int) {
	var seen [2]uint64
	d := 0
	for k, c := range text[v:] {
		if c >= 0x80 {
			return true, v + k
		}
		if !valueByte(c) {
			return false, v + k
		}
		if seen[c>>6]&(1<<(c&63)) == 0 {
			seen[c>>6] |= 1 << (c & 63)
			if d++; d >= need {
				return true, v + k
			}
		}
	}
	return !end, len(text)
}

// poorRun remembers the last run of value bytes distinctRun found too
// poor in distinct bytes (and ASCII only): a place later in the same run
// reads a part of it, so it is too poor as well. A text of one keyword
// repeated (key=key=key=…) is then read once, not once a place.
type poorRun struct {
	from, to, need int
	res, ok        bool
}

// distinctRun is distinctRun(text, v, need, end), answered from the run
// remembered when v is inside it; p may be nil (nothing remembered).
func (p *poorRun) distinctRun(text []byte, v, need int, end bool) bool {
	if p == nil {
		return distinctRun(text, v, need, end)
	}
	if p.ok && p.need == need && v >= p.from && v < p.to {
		return p.res
	}
	ok, stop := distinctRunTo(text, v, need, end)
	if !ok || stop == len(text) {
		// Too poor up to the run's end (or the text's, ok then saying
		// only that the run may go on): the same from any place in it.
		*p = poorRun{from: v, to: stop, need: need, res: ok, ok: true}
	}
	return ok
}

func quoteOrSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', '\'', '"':
		return true
	}
	return false
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// assignShape is the part of gitleaks' "name = value" rules (the generic
// rule and about a hundred service rules) between the name and the value.
const assignShape = `(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

// namePrefix starts the "name = value" rules: up to 50 name bytes before
// the keyword, taken lazily.
const namePrefix = `(?i)[\w.-]{0,50}?`

// scanAtNames runs a "name = value" rule from each of its keyword places
// (those an assignment follows) with its anchored expression. A match is
// what the whole expression would match there: it starts where the run
// of [\w.-] before the keyword starts, at most 50 bytes back; a place
// inside a value already found is skipped.
func (s *Scanner) scanAtNames(r *Rule, str string, pos []int32, lc *lineCtx) []Match {
	var found []Match
	end := 0
	for _, p32 := range pos {
		p := int(p32)
		if p < end {
			continue
		}
		lim := min(len(str), p+maxNameValue)
		m := r.atName.FindStringSubmatchIndex(str[p:lim])
		if m != nil && m[1] == lim-p && lim < len(str) {
			m = r.atName.FindStringSubmatchIndex(str[p:]) // a long value: cut by the window
		}
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += p
			}
		}
		// The name prefix, [\w.-]{0,50}? case-folded: up to 50
		// characters, the Kelvin sign and the long s among them.
		start := p
		for n := 0; start > end && n < 50; n++ { // not into the match before
			if c := str[start-1]; isWord(c) || c == '.' || c == '-' {
				start--
			} else if w := foldEndsAt(str, start); w > 0 {
				start -= w
			} else {
				break
			}
		}
		m[0] = start
		if mt, ok := s.match(r, str, m, lc); ok {
			found = append(found, mt)
			end = m[1] // the match's end, past its terminator (a "\\n" may end it)
		}
	}
	return found
}

// scanAtPlaces runs anchored rule r's anchored expression from each of
// its places in one window of str (ending at b): what the expression
// finds over the window, as every match starts at a place (found left to
// right, each after the previous one's end, so a place inside a match is
// skipped; a place whose lines, as far as a match can reach (lineBound),
// lack the literals every match holds is passed by). The bytes before a place are not read: the places kept say
// what the expression reads there (a word boundary before a word byte is
// a byte not a word byte or none, as at a text's start). It reports cut
// when a match reaches the window's end before the text's (the window
// may have cut it: Scan then runs the rule on the whole text).
func (s *Scanner) scanAtPlaces(r *Rule, str string, b int, pos []int32, found []Match, low *[]byte, lc *lineCtx, nl *newlines) (_ []Match, cut bool) {
	end := 0
	var gs gateScan
	if r.gate != nil && !s.oneByOne {
		gs = newGateScan(r.gate, str, b)
	}
	for _, p32 := range pos {
		p := int(p32)
		if p < end {
			continue
		}
		// The lines a match from p can reach: without the literals every
		// match holds, no match starts at p.
		lb := nl.bound(p, b, r.lines)
		if lb < b && (!r.mayMatch(str[p:lb]) || !r.mayFold(str[p:lb], low)) {
			continue
		}
		// Nor without its gate's literal, with the rest of the
		// expression after it, before lb.
		if gs.g != nil {
			if q := gs.first(p); q < 0 || q >= lb {
				continue
			}
		}
		m := r.atPlace.FindStringSubmatchIndex(str[p:b])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += p
			}
		}
		if m[1] == b && b < len(str) {
			return found, true
		}
		end = max(m[1], p+1)
		if mt, ok := s.match(r, str, m, lc); ok {
			found = append(found, mt)
		}
	}
	return found, false
}

// newlines finds the line ends after places that come in order (an
// anchored rule's places in one text): each '\n' of the text is searched
// for once, however many places lie before it (a text of thousands of
// places on one long line).
type newlines struct {
	str  string
	nls  []int // the first '\n's at or after the last place asked about, in order
	from int   // where the search for the next one goes on
	done bool  // no '\n' from there on
}

// bound is how far a match from p that holds at most lines '\n' bytes
// can reach, at most b: just past the lines+1'th '\n' from p (the match
// ends before it: that '\n' is at most the byte after the match, which
// \b, \B and \z read), or b. p is no smaller than the last p asked about.
func (c *newlines) bound(p, b, lines int) int {
	if lines < 0 {
		return b
	}
	k := 0
	for k < len(c.nls) && c.nls[k] < p {
		k++
	}
	c.nls = c.nls[k:]
	c.from = max(c.from, p)
	for len(c.nls) <= lines && !c.done {
		i := strings.IndexByte(c.str[c.from:], '\n')
		if i < 0 {
			c.done = true
			break
		}
		c.nls = append(c.nls, c.from+i)
		c.from += i + 1
	}
	if len(c.nls) > lines && c.nls[lines] < b {
		return c.nls[lines] + 1
	}
	return b
}

// maxNameValue bounds what an anchored "name = value" match is looked for
// in: a name, an operator and a 150-byte value fit.
const maxNameValue = 320

// nameLiterals returns the names of a "name = value" rule whose name group
// is plain words ("(?:lob)", "(?:a|b)"), or nil.
func nameLiterals(expr string) []string {
	if !strings.HasPrefix(expr, namePrefix+"(?:") {
		return nil
	}
	rest := expr[len(namePrefix)+3:]
	end := strings.Index(rest, ")"+assignShape)
	if end < 0 {
		return nil
	}
	names := strings.Split(strings.ToLower(rest[:end]), "|")
	for _, n := range names {
		if len(n) < 2 {
			return nil
		}
		for _, c := range n {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' && c != '-' {
				return nil
			}
		}
	}
	return names
}

// namePlaces appends to pos, in order, the places in text where one of
// names starts (ASCII case-insensitively) and an assignment follows.
func namePlaces(text []byte, names []string, pos []int32) []int32 {
	for i := 0; i < len(text); i++ {
		for _, n := range names {
			if lower[text[i]] == n[0] && hasKeywordAt(text, i, n) && assignsAfter(text, i+len(n)) {
				pos = append(pos, int32(i))
				break
			}
		}
	}
	return pos
}

// assignRule reports whether expr has assignShape right after a name group
// that holds every keyword (lob-api-key's keywords are in its value: not
// one of these).
func assignRule(expr string, keywords []string) bool {
	group, ok := nameGroup(expr)
	if !ok {
		return false
	}
	name := strings.ToLower(group)
	for _, k := range keywords {
		k = strings.ToLower(k)
		if len(k) > 5 {
			k = k[:5] // "password" is passw(?:or)?d there
		}
		if !strings.Contains(name, k) {
			return false
		}
	}
	return true
}

// nameGroup is the name group of a "name = value" expression: the group
// ("(?:...)") after its lazy name prefix and right before assignShape.
func nameGroup(expr string) (string, bool) {
	i := strings.Index(expr, assignShape)
	if i < 0 {
		return "", false
	}
	j := strings.LastIndex(expr[:i], "{0,50}?(?:")
	if j < 0 {
		return "", false
	}
	return expr[j+len("{0,50}?") : i], true
}

// branchAssignKeys returns, for an expression that is a top-level
// alternation whose first branch is a "name = value" one (assignRule)
// and whose other branches each hold, in every match, one of the
// keywords that are not in that name group, the keywords of the name
// group (lowercase); else nil. atlassian-api-token is one: "jira = value"
// or "ATATT3" and 186 more. A place of a name keyword with no assignment
// after it is then in no match of the first branch, and a match of
// another holds a place of another keyword (matchHolds), which still
// counts.
func branchAssignKeys(expr string, keywords []string) map[string]bool {
	branches := topAlternatives(expr)
	if len(branches) < 2 || !strings.HasPrefix(expr, namePrefix) {
		return nil
	}
	name := map[string]bool{}
	var others []string
	for _, k := range keywords {
		k = strings.ToLower(k)
		if assignRule(branches[0], []string{k}) {
			name[k] = true
		} else {
			others = append(others, k)
		}
	}
	if len(name) == 0 || len(others) == 0 {
		return nil
	}
	// A keyword with a k or an s may be matched by the Kelvin sign or the
	// long s, which the keyword finder would not see.
	others = slices.DeleteFunc(others, func(k string) bool { return strings.ContainsAny(k, "ks") })
	for _, b := range branches[1:] {
		// The flags the expression starts with hold in every branch.
		re, err := syntax.Parse("(?i)"+b, syntax.Perl)
		if err != nil || !matchHolds(re, others) {
			return nil
		}
	}
	return name
}

// maxNameExtra is the most bytes a name may go on past its keyword for the
// check to run (placeCounts reads afterWindow bytes after a keyword).
const maxNameExtra = 20

// nameExtra returns, for a name = value expression, how many bytes its
// name group may go on past each keyword (Rule.nameExtra), only those
// above 0: from the group's strings where they are few, else from its
// longest match (-1 when unbounded or above maxNameExtra).
func nameExtra(expr string, keywords []string) map[string]int {
	group, ok := nameGroup(expr)
	if !ok {
		return nil
	}
	re, err := syntax.Parse("(?i)"+group, syntax.Perl)
	if err != nil {
		return nil
	}
	out := map[string]int{}
	lang, longest := infoOf(re, nil).exact, maxLen(re)
	for _, k := range keywords {
		k = strings.ToLower(k)
		e := 0
		if lang != nil {
			for _, s := range lang {
				if x := strings.Index(s, k); x >= 0 {
					e = max(e, len(s)-x-len(k))
				}
			}
		} else if e = longest - len(k); longest < 0 {
			e = -1
		}
		if e > maxNameExtra {
			e = -1
		}
		if e != 0 {
			out[k] = e
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// assignsOn reports whether a place of r's keyword k counts only where an
// assignment follows (assign, assignKeys).
func (r *Rule) assignsOn(k string) bool { return r.assign || r.assignKeys[k] }

// assignsAfterKeyword is assignsAfterNeed for r's keyword k ending at i,
// from each place r's name may end (Rule.nameExtra).
func (r *Rule) assignsAfterKeyword(text []byte, i int, k string, need int, end bool, poor *poorRun) bool {
	r.leadReady() // sets nameExtra
	extra := r.nameExtra[k]
	if extra < 0 {
		return true
	}
	for e := 0; e <= extra && i+e <= len(text); e++ {
		if assignsAfterNeed(text, i+e, need, end, poor) {
			return true
		}
	}
	return false
}

// assignsAfter reports whether an assignment can follow a keyword ending at
// i as assignShape reads it: at most 20 of [ \t\w.-], at most 3 of
// [\s'"], then one of = > : | ? ,. Where none can, no match of a rule of
// that shape uses this keyword.
func assignsAfter(text []byte, i int) bool { return assignsAfterNeed(text, i, 0, true, nil) }

// assignsAfterNeed is assignsAfter for a value that must hold need
// distinct bytes (valueAfter); end says text ends where the text does.
func assignsAfterNeed(text []byte, i, need int, end bool, poor *poorRun) bool {
	for j := 0; j <= 20 && i+j <= len(text); j++ {
		for k := 0; k <= 3 && i+j+k < len(text); k++ {
			switch text[i+j+k] {
			case '=', '>', ':', '|', '?', ',':
				if valueAfter(text, i+j+k+1, need, end, poor) {
					return true
				}
			}
			if !quoteOrSpace(text[i+j+k]) {
				break
			}
		}
		if i+j >= len(text) {
			break
		}
		if c := text[i+j]; !isWord(c) && c != ' ' && c != '\t' && c != '.' && c != '-' {
			if foldsToASCII(text[i+j:]) {
				return true // the Kelvin sign or the long s, a (?i) \w: maybe
			}
			break
		}
	}
	return false
}

// The two characters beyond ASCII that (?i) folds to ASCII letters (k,
// s), and their UTF-8.
const (
	kelvinSign, longS     = '\u212a', '\u017f'
	kelvinUTF8, longSUTF8 = string(kelvinSign), string(longS)
)

// foldEndsAt is the length of the Kelvin sign or the long s that ends
// at str[i] (see foldsToASCII), else 0.
func foldEndsAt(str string, i int) int {
	for _, c := range [...]string{kelvinUTF8, longSUTF8} {
		if strings.HasSuffix(str[:i], c) {
			return len(c)
		}
	}
	return 0
}

// foldsToASCII reports whether b starts with the Kelvin sign (U+212A, k)
// or the long s (U+017F, s). A case-folded \w or [a-z] takes them, so the
// name = value rules' gaps and values may hold them; the checks that read
// bytes then let the place count.
func foldsToASCII(b []byte) bool {
	return len(b) >= len(kelvinUTF8) && string(b[:len(kelvinUTF8)]) == kelvinUTF8 ||
		len(b) >= len(longSUTF8) && string(b[:len(longSUTF8)]) == longSUTF8
}

// mayFind reports whether Scan can find a secret in the text raw decodes
// to, raw being the contents of a JSON string holding escapes but no \u
// escape (the parser's Node.UEsc says which hold one; those are decoded
// without asking): what Scan would find, read from the raw
// bytes, so that most strings need not be decoded. Every keyword in the
// decoded text is in raw too, its bytes literal (no keyword holds a byte
// a short escape gives), not the letter of an escape (an odd run of
// backslashes before it); the checks Scan makes on a place (a word
// boundary before it, an assignment after it) read the bytes around it
// decoded here, as Scan would read them. An anchored rule with a literal
// prefix also needs the prefix at the place.
func (s *Scanner) mayFind(raw []byte) bool {
	var dec []byte
	return s.mayFindIn(raw, &dec)
}

// decWindows is the size of the scratch space mayFindIn decodes in: the
// bytes after a keyword (afterWindow), then, from decLong on, the value's
// (longWindow).
const (
	decLong    = 128
	decWindows = decLong + 384
)

// mayFindIn is mayFind decoding in *dec (scratch space, grown to
// decWindows and kept for the next call) where a window holds escapes.
func (s *Scanner) mayFindIn(raw []byte, dec *[]byte) bool {
	if cap(*dec) < decWindows {
		*dec = make([]byte, 0, decWindows)
	}
	d := (*dec)[:decWindows]
	found := false
	s.ac.each(raw, func(ki, i int) bool {
		if oddBackslashes(raw, i) {
			return true // the letter of an escape: not a keyword decoded
		}
		var after []byte // the decoded bytes after the keyword, when needed
		k := s.kw[ki]
		for _, ri := range s.byKeyword[ki] {
			if s.placeCounts(s.rules[ri], raw, i, k, &after, d) {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// oddBackslashes reports whether an odd run of backslashes ends right
// before raw[i]: raw[i] is then the letter of an escape.
func oddBackslashes(raw []byte, i int) bool {
	n := 0
	for i-n-1 >= 0 && raw[i-n-1] == '\\' {
		n++
	}
	return n%2 == 1
}

// afterWindow is how many decoded bytes after a keyword placeCounts reads:
// assignsAfter reads at most 42, from up to maxNameExtra bytes on.
const afterWindow = 64

// genericValue is the generic rule's value group, whose bytes distinctRun
// counts: a rule file with another one gets no distinct check.
const genericValue = `[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;]|\\[nr]|$)`

// longWindow is how many decoded bytes after a keyword placeCounts reads
// for a value's distinct bytes.
const longWindow = 256

// placeCounts reports whether rule r keeps keyword k's place i in raw
// (see mayFind). *after caches the keyword and the decoded bytes after
// it; d is scratch space of decWindows bytes for them.
func (s *Scanner) placeCounts(r *Rule, raw []byte, i int, k string, after *[]byte, d []byte) bool {
	if s.wholeTextOf(r) {
		return true // any place: the whole text is read
	}
	n := len(k)
	assign := r.assignsOn(k)
	// First what costs least: a word before an anchored rule's \b (most
	// places of "ey" and "s." are inside words: key, they, files.).
	if r.names == nil && r.wordStart && i > 0 && isWord(raw[i]) {
		// The decoded byte before: raw[i-1], unless it ends an escape
		// (an escape decodes to no word byte).
		if c := raw[i-1]; c != '\\' && isWord(c) && !oddBackslashes(raw, i-1) {
			return false
		}
	}
	if r.names != nil || r.anchored {
		if !r.leadReady() {
			return true
		}
		if r.lead != nil {
			if *after == nil {
				*after = decodedAt(raw, i, n, afterWindow, d[:0:decLong])
			}
			if !r.lead.may(*after, 0, len(*after) < n+afterWindow) {
				return false
			}
		}
	}
	if r.names != nil {
		return true
	}
	if !assign && !r.anchored {
		return true
	}
	if *after == nil {
		*after = decodedAt(raw, i, n, afterWindow, d[:0:decLong])
	}
	if assign && !r.assignsAfterKeyword(*after, n, k, 0, true, nil) {
		return false
	}
	if r.distinct > 0 {
		// The value's distinct bytes: read further than the window.
		long := decodedAt(raw, i, n, longWindow, d[decLong:decLong:decWindows])
		if !r.assignsAfterKeyword(long, n, k, r.distinct, len(long) < n+longWindow, nil) {
			return false
		}
	}
	if r.anchored {
		if r.compile() != nil {
			return true
		}
		if p := r.prefix; p != "" && len(p) <= n+afterWindow-8 && !bytes.HasPrefix(*after, []byte(p)) {
			return false
		}
	}
	return true
}

// decodedAt is the keyword of n bytes at raw[i] and the decoding of at
// most max bytes after it: raw's bytes themselves, not copied, where they
// hold no escape (the common case: the result is only read), else decoded
// into buf (grown if need be).
func decodedAt(raw []byte, i, n, max int, buf []byte) []byte {
	e := min(len(raw), i+n+max)
	if bytes.IndexByte(raw[i+n:e], '\\') < 0 {
		return raw[i:e:e]
	}
	return decodeShort(append(buf[:0], raw[i:i+n]...), raw[i+n:], max)
}

// decodeShort appends to dst the decoding of raw (JSON string contents
// with no \u escape, starting at an escape's or a character's start),
// stopping after max bytes.
func decodeShort(dst, raw []byte, max int) []byte {
	for r, n := 0, 0; r < len(raw) && n < max; n++ {
		// The bytes before the next escape, at once.
		if j := bytes.IndexByte(raw[r:min(len(raw), r+max-n)], '\\'); j != 0 {
			if j < 0 {
				j = min(len(raw), r+max-n) - r
			}
			dst = append(dst, raw[r:r+j]...)
			r += j
			n += j - 1
			continue
		}
		if r+1 >= len(raw) {
			dst = append(dst, raw[r])
			r++
			continue
		}
		dst = append(dst, jsontree.Unescape(raw[r+1]))
		r += 2
	}
	return dst
}

// Scan calls fn for each secret in text. Only the rules whose keywords
// occur run, and each runs its expression only on windows around its
// keywords (as wide as its longest match on each side): the expressions
// are slow on long texts, most of which they cannot match. A match that
// touches a window's inner edge may be cut by it: the rule then runs on
// the whole text instead. A generic-api-key match that overlaps a match of
// a more specific rule is dropped (the specific one names it).
func (s *Scanner) Scan(text []byte, fn func(Match)) {
	if len(text) < 8 {
		return
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	if len(sc.pos) < len(s.rules) {
		sc.pos = make([][]int32, len(s.rules))
		sc.named = make([]bool, len(s.rules))
	}
	for _, ri := range sc.hit {
		sc.pos[ri] = sc.pos[ri][:0]
		sc.named[ri] = false
	}
	sc.hit = sc.hit[:0]
	s.keywords(text, sc)
	if len(sc.hit) == 0 {
		return
	}
	slices.Sort(sc.hit)
	// The expressions run on a string: text, not copied (it is not
	// changed while Scan runs; a Match's value is copied out of it).
	str := unsafe.String(&text[0], len(text))
	lc := newLineCtx(str)
	var out, generic []Match
	for _, ri := range sc.hit {
		r := s.rules[ri]
		if r.compile() != nil {
			continue
		}
		if s.wholeTextOf(r) {
			if !s.oneByOne && (!r.mayMatch(str) || !r.mayRun(str) || !r.mayFold(str, &sc.low)) {
				continue
			}
			for _, m := range r.re.FindAllStringSubmatchIndex(str, -1) {
				if mt, ok := s.match(r, str, m, lc); ok {
					if r.generic {
						generic = append(generic, mt)
					} else {
						out = append(out, mt)
					}
				}
			}
			continue
		}
		if r.prefix != "" {
			// An anchored rule's matches start at its places, with the
			// literal its expression starts with: the others go.
			kept := sc.pos[ri][:0]
			for _, p := range sc.pos[ri] {
				if strings.HasPrefix(str[p:], r.prefix) {
					kept = append(kept, p)
				}
			}
			if sc.pos[ri] = kept; len(kept) == 0 {
				continue
			}
		}
		if r.names != nil {
			sc.pos[ri] = namePlaces(text, r.names, sc.pos[ri][:0])
			if len(sc.pos[ri]) == 0 || r.atName == nil {
				continue
			}
		}
		if r.atName != nil {
			found := s.scanAtNames(r, str, sc.pos[ri], lc)
			if r.generic {
				generic = append(generic, found...)
			} else {
				out = append(out, found...)
			}
			continue
		}
		before, after := r.span, r.span
		if r.span < 0 {
			before, after = 256, 8192
		}
		switch {
		case r.anchored:
			before = 0
		case r.assign:
			// The name takes at most 50 bytes before the keyword.
			before = 51
			if r.span < 0 {
				after = 320 // name, operator, a 150-byte value; a longer base64 value reruns on the whole text
			}
		}
		sc.wins, sc.first = sc.wins[:0], sc.first[:0]
		nl := newlines{str: str}
		for k, p := range sc.pos[ri] {
			a, b := max(0, int(p)-before-1), min(len(str), int(p)+after+1)
			if r.anchored && r.lines >= 0 {
				// A match of an anchored rule starts at its place, so it
				// ends before the (lines+1)th line end after it
				// (curl-auth-header: 8 KiB windows cut to a few lines).
				// Not so for the others: facebook-access-token's match
				// holds no keyword, and may lie past that line end.
				b = nl.bound(int(p), b, r.lines)
			}
			if n := len(sc.wins); n > 0 && a <= sc.wins[n-1][1] {
				sc.wins[n-1][1] = max(sc.wins[n-1][1], b)
				continue
			}
			sc.wins = append(sc.wins, [2]int{a, b})
			sc.first = append(sc.first, k)
		}
		var found []Match
		whole := false
		atPlaces := newlines{str: str} // the places of all windows, in order
	windows:
		for wi, w := range sc.wins {
			if !s.oneByOne && (!r.mayMatch(str[w[0]:w[1]]) || !r.mayRun(str[w[0]:w[1]]) || !r.mayFold(str[w[0]:w[1]], &sc.low)) {
				continue
			}
			if r.atPlace != nil && !s.oneByOne {
				last := len(sc.pos[ri])
				if wi+1 < len(sc.first) {
					last = sc.first[wi+1]
				}
				var cut bool
				if found, cut = s.scanAtPlaces(r, str, w[1], sc.pos[ri][sc.first[wi]:last], found, &sc.low, lc, &atPlaces); cut {
					whole = true
					break windows
				}
				continue
			}
			for _, m := range r.re.FindAllStringSubmatchIndex(str[w[0]:w[1]], -1) {
				if (m[0] == 0 && w[0] > 0) || (m[1] == w[1]-w[0] && w[1] < len(str)) {
					whole = true
					break windows
				}
				for k := range m {
					if m[k] >= 0 {
						m[k] += w[0]
					}
				}
				if mt, ok := s.match(r, str, m, lc); ok {
					found = append(found, mt)
				}
			}
		}
		if whole {
			found = found[:0]
			for _, m := range r.re.FindAllStringSubmatchIndex(str, -1) {
				if mt, ok := s.match(r, str, m, lc); ok {
					found = append(found, mt)
				}
			}
		}
		if r.generic {
			generic = append(generic, found...)
		} else {
			out = append(out, found...)
		}
	}
	out = appendApart(out, generic)
	for _, m := range out {
		fn(m)
	}
}

// match turns one match of r's expression (submatch indexes m) into a
// secret, or reports false when the entropy or an allowlist rules it out.
func (s *Scanner) match(r *Rule, str string, m []int, lc *lineCtx) (Match, bool) {
	start, end := m[0], m[1]
	// gitleaks trims newlines off the match (its expressions may take the
	// one after a value).
	for end > start && str[end-1] == '\n' {
		end--
	}
	for start < end && str[start] == '\n' {
		start++
	}
	whole := str[start:end]
	secStart, secEnd := start, end
	if ng := len(m)/2 - 1; ng >= 1 {
		if r.secretGroup > 0 {
			if r.secretGroup > ng || m[2*r.secretGroup] < 0 {
				return Match{}, false
			}
			secStart, secEnd = m[2*r.secretGroup], m[2*r.secretGroup+1]
		} else {
			for g := 1; g <= ng; g++ {
				if a, b := m[2*g], m[2*g+1]; a >= 0 && b > a {
					secStart, secEnd = a, b
					break
				}
			}
		}
	}
	secStart, secEnd = max(secStart, start), min(secEnd, end)
	if secEnd <= secStart {
		return Match{}, false
	}
	secret := str[secStart:secEnd]
	if r.entropy != 0 && Entropy(secret) <= r.entropy {
		return Match{}, false
	}
	at := lineAt{lc, start, end}
	for _, al := range s.global {
		if al.allows(secret, whole, at) {
			return Match{}, false
		}
	}
	for _, al := range r.allow {
		if al.allows(secret, whole, at) {
			return Match{}, false
		}
	}
	if placeholder(secret) {
		return Match{}, false
	}
	return Match{Rule: r, Start: secStart, End: secEnd, Value: strings.Clone(secret)}, true
}

// appendApart appends to out the generic matches that overlap none of out's
// nor one appended before them (the generic rule yields to every other),
// keeping their order: through out's spans sorted by start, with the
// largest end so far, so that thousands of matches of each are not
// compared pair by pair. The generic rule's matches never overlap one
// another (one expression's, each found after the one before); were they
// to, each is compared with all, as appended.
func appendApart(out, generic []Match) []Match {
	if len(generic) == 0 {
		return out
	}
	if genericOverlap(generic) {
		for _, g := range generic {
			overlap := false
			for _, o := range out {
				if g.Start < o.End && o.Start < g.End {
					overlap = true
					break
				}
			}
			if !overlap {
				out = append(out, g)
			}
		}
		return out
	}
	if len(out) == 0 {
		return append(out, generic...)
	}
	type span struct{ start, maxEnd int }
	spans := make([]span, len(out))
	for i, o := range out {
		spans[i] = span{o.Start, o.End}
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	for i := 1; i < len(spans); i++ {
		spans[i].maxEnd = max(spans[i].maxEnd, spans[i-1].maxEnd)
	}
	for _, g := range generic {
		// The spans that start before g ends overlap it when one of them
		// ends after g starts.
		n, _ := slices.BinarySearchFunc(spans, g.End, func(s span, end int) int { return cmp.Compare(s.start, end) })
		if n == 0 || spans[n-1].maxEnd <= g.Start {
			out = append(out, g)
		}
	}
	return out
}

// genericOverlap reports whether two of ms overlap.
func genericOverlap(ms []Match) bool {
	spans := make([][2]int, len(ms))
	for i, m := range ms {
		spans[i] = [2]int{m.Start, m.End}
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	for i := 1; i < len(spans); i++ {
		if spans[i][0] < spans[i-1][1] {
			return true
		}
	}
	return false
}

// lineCtx finds the lines of one text around its matches, and remembers
// what an allowlist reading the whole line said of it: a line of thousands
// of matches is searched for its ends, and read by the allowlists, once.
type lineCtx struct {
	str     string
	lo, hi  int // a line of str with no '\n' in it (hi < lo: none yet)
	verdict map[lineVerdict]bool
}

func newLineCtx(str string) *lineCtx { return &lineCtx{str: str, lo: 1} }

type lineVerdict struct {
	al     *allowlist
	lo, hi int
}

// lineAt is the line around a match from start to end of lc's text.
type lineAt struct {
	lc         *lineCtx
	start, end int
}

// bounds is where the line around the match starts and ends.
func (at lineAt) bounds() (int, int) {
	lc := at.lc
	if at.start >= lc.lo && at.end <= lc.hi {
		return lc.lo, lc.hi
	}
	a, b := lineBounds(lc.str, at.start, at.end)
	if !strings.Contains(lc.str[a:b], "\n") {
		lc.lo, lc.hi = a, b
	}
	return a, b
}

// lineBounds is where the line around text[start:end] starts and ends:
// after the last '\n' before start, at the first '\n' from end.
func lineBounds(str string, start, end int) (int, int) {
	a := strings.LastIndexByte(str[:start], '\n') + 1
	b := strings.IndexByte(str[end:], '\n')
	if b < 0 {
		return a, len(str)
	}
	return a, end + b
}

// stopped reports whether the secret holds one of the allowlist's
// stopwords (case-insensitively).
func (a *allowlist) stopped(secret string) bool {
	if len(a.stopwords) == 0 {
		return false
	}
	ls := strings.ToLower(secret)
	for _, w := range a.stopwords {
		if strings.Contains(ls, w) {
			return true
		}
	}
	return false
}

// allows reports whether the allowlist lets the secret through, as gitleaks
// decides it: with condition OR, a regex or a stopword allows it; with AND,
// every condition given must hold (a path or commit condition never holds
// here: ccvet scans no repository paths or commits).
func (a *allowlist) allows(secret, whole string, line lineAt) bool {
	// The stopwords first: they are cheap, where the regexes may not be
	// (the generic rule's takes 90 µs on a 100-byte match), and with
	// condition OR one found decides; with AND, one missing does.
	stop := a.stopped(secret)
	if a.and {
		if a.paths || len(a.stopwords) > 0 && !stop {
			return false
		}
	} else if stop {
		return true
	}
	regex := a.regexAllows(secret, whole, line)
	if a.and {
		hasRegex := len(a.regexes) > 0 || len(a.hashes) > 0
		if hasRegex && !regex {
			return false
		}
		return hasRegex || len(a.stopwords) > 0
	}
	return regex
}

// regexAllows reports whether one of the allowlist's expressions (or
// hashed literals) matches its target: the secret, the whole match or the
// line.
func (a *allowlist) regexAllows(secret, whole string, line lineAt) bool {
	target := secret
	switch a.target {
	case "match":
		target = whole
	case "line":
		// Of the line alone: asked once a line.
		lo, hi := line.bounds()
		k := lineVerdict{a, lo, hi}
		if v, ok := line.lc.verdict[k]; ok {
			return v
		}
		v := a.targetAllows(line.lc.str[lo:hi])
		if line.lc.verdict == nil {
			line.lc.verdict = map[lineVerdict]bool{}
		}
		line.lc.verdict[k] = v
		return v
	}
	return a.targetAllows(target)
}

// targetAllows reports whether one of the allowlist's expressions (or
// hashed literals) matches target.
func (a *allowlist) targetAllows(target string) bool {
	for _, re := range a.regexes {
		if re.MatchString(target) {
			return true
		}
	}
	return len(a.hashes) > 0 && a.hashed(target)
}

// hashed reports whether target holds a substring among a.hashes.
func (a *allowlist) hashed(target string) bool {
	for _, n := range a.hashLen {
		for i := 0; i+n <= len(target); i++ {
			if a.hashes[sha256.Sum256([]byte(target[i:i+n]))] {
				return true
			}
		}
	}
	return false
}

// placeholder reports the documentation and example values gitleaks' own
// allowlists do not catch: AWS's AKIAIOSFODNN7EXAMPLE family, keys with a
// run of X, x or * or an ellipsis (sk-ant-…XXXX), and those that say they
// are one.
func placeholder(secret string) bool {
	up := strings.ToUpper(secret)
	if strings.Contains(up, "EXAMPLE") {
		return true
	}
	if strings.Contains(secret, "XXXX") || strings.Contains(secret, "xxxx") || strings.Contains(secret, "****") || strings.Contains(secret, "…") {
		return true
	}
	for _, w := range [...]string{"YOUR_", "YOUR-", "<YOUR", "REPLACE", "PLACEHOLDER", "CHANGEME", "DUMMY", "REDACTED"} {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// Entropy is the Shannon entropy of s in bits per code point, as gitleaks
// computes it (code point counts over the byte length).
func Entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var ascii [128]int
	var other map[rune]int
	for _, c := range s {
		if c < 128 {
			ascii[c]++
			continue
		}
		if other == nil {
			other = map[rune]int{}
		}
		other[c]++
	}
	inv := 1 / float64(len(s))
	e := 0.0
	for _, n := range ascii {
		if n > 0 {
			f := float64(n) * inv
			e -= f * math.Log2(f)
		}
	}
	for _, n := range other {
		f := float64(n) * inv
		e -= f * math.Log2(f)
	}
	return e
}
