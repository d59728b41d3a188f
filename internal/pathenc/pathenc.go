// Package pathenc reproduces and checks Claude Code's project folder names (projects/<enc(cwd)>).
package pathenc

// How Claude Code names a project folder (see notes/format.md):
//
//   - every UTF-16 code unit of the launch directory that is not [A-Za-z0-9]
//     becomes '-': "/a/b_c" → "-a-b-c", "é" → "-", an emoji (two units) → "--",
//     `C:\Users\x` → "C--Users-x";
//   - from 2.1.47, a name longer than 200 characters becomes its first 200
//     characters + '-' + a base-36 hash of the original (unencoded) path.
//     The Node builds (and native builds from 2.1.101) hash with the Java-style
//     32-bit string hash h = h*31 + unit over the UTF-16 units, kept as a
//     SIGNED 32-bit integer (`(h<<5)-h+c | 0` in JavaScript), and print
//     Math.abs(h).toString(36). Math.abs works on a JS double, so the hash
//     -2^31 prints as "zik0zk" (2^31), not as a negative number: Encode does
//     the same, computing the absolute value in 64 bits. Native builds
//     2.1.47-2.1.98 used a different 64-bit hash (Bun.hash), which ccvet
//     cannot reproduce: Matches accepts any [0-9a-z]+ suffix after the right
//     200-character prefix.
//
// What Matches accepts, and why:
//
//   - the exact name Encode gives;
//   - the uncapped name, as written before 2.1.47;
//   - "<first 200>-<any [0-9a-z]+>" for long names (other builds' hashes);
//   - the drive letter of a Windows path in either case: Claude Code keeps
//     the case the shell gives, so "c--Users-x" and "C--Users-x" can both
//     hold one project;
//   - a trailing path separator on the cwd, encoded ("/a/b/" as "-a-b-") or
//     not ("-a-b");
//   - NFC and NFD spellings of the path. From 2.1.39 the path is
//     NFC-normalized before encoding; before, macOS gave NFD names. The two
//     encode differently ("é" is one unit, "-", in NFC but "e"+U+0301, "e-",
//     in NFD; Hangul syllables become two or three jamo; kana with a voicing
//     mark become two units). ccvet has no Unicode normalization tables
//     (golang.org/x/text is not a dependency, and adding one for this check is
//     not worth it), so for a cwd with non-ASCII characters it matches
//     leniently: ASCII letters and digits must appear as they are, an ASCII
//     letter followed by combining marks may also have merged into one '-',
//     a non-ASCII character of one UTF-16 unit may appear as 1-4 dashes,
//     optionally led by one ASCII letter (its decomposed base), and a
//     combining mark (or a Hangul vowel or final jamo) may have vanished
//     into the character before it. This accepts the NFC and NFD spellings
//     of real paths (a canonical decomposition has at most four UTF-16 units)
//     and, rarely, a name that is neither: the right side to err on for a
//     warning;
//   - NOT the CLAUDE_CODE_PROJECT_DIR_NAME override: with CLAUDE_CONFIG_DIR
//     set, that variable replaces the name with any ^[A-Za-z0-9_-]{1,64}$
//     string, which cannot be checked against the cwd. Matches returns false
//     for such names; callers ask MaybeOverride and decide (ccvet's rules stay
//     silent for names that can only be an override, see MaybeOverride).

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// MaxLen is the longest encoded name Claude Code writes uncapped (from 2.1.47).
const MaxLen = 200

// EncodeUncapped maps every UTF-16 code unit of p that is not [A-Za-z0-9] to '-',
// the project folder name as written before 2.1.47.
func EncodeUncapped(p string) string {
	var b strings.Builder
	b.Grow(len(p))
	for _, r := range p {
		switch {
		case isAlnum(r):
			b.WriteRune(r)
		case r >= 0x10000 && r <= unicode.MaxRune:
			b.WriteString("--") // a surrogate pair: two units
		default:
			b.WriteByte('-') // includes U+FFFD for invalid UTF-8: one unit
		}
	}
	return b.String()
}

// Encode returns the project folder name Claude Code (Node build, 2.1.47 and
// later) gives the launch directory p.
func Encode(p string) string {
	enc := EncodeUncapped(p)
	if len(enc) <= MaxLen {
		return enc
	}
	return enc[:MaxLen] + "-" + Hash(p)
}

// Hash is the base-36 suffix of a capped name: Math.abs of the signed 32-bit
// h*31+unit hash over p's UTF-16 code units.
func Hash(p string) string {
	var h int32
	for _, u := range utf16.Encode([]rune(p)) {
		h = h*31 + int32(u) // wraps like JavaScript's `| 0`
	}
	v := int64(h)
	if v < 0 {
		v = -v
	}
	return strconv.FormatInt(v, 36)
}

var (
	overrideRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	suffixRe   = regexp.MustCompile(`^-[0-9a-z]+$`)
	driveRe    = regexp.MustCompile(`^[A-Za-z]:`)
	encDriveRe = regexp.MustCompile(`^[A-Za-z]--`)
)

// MaybeOverride reports whether name can only have come from
// CLAUDE_CODE_PROJECT_DIR_NAME (or a hand-made folder), not from encoding
// an absolute path: it fits the variable's ^[A-Za-z0-9_-]{1,64}$ but holds an
// underscore (never written by the encoding) or does not start like an
// encoded absolute path ("-" for POSIX and UNC paths, "X--" for a Windows
// drive). A name that looks like an encoding may still be an override;
// callers cannot tell.
func MaybeOverride(name string) bool {
	if !overrideRe.MatchString(name) {
		return false
	}
	if strings.Contains(name, "_") {
		return true
	}
	return !strings.HasPrefix(name, "-") && !encDriveRe.MatchString(name)
}

// Encodes reports whether folder is a name some Claude Code version gives
// the launch directory cwd, spelled exactly as given: the current encoding,
// the uncapped one, any hash suffix after the right 200-character prefix,
// and either case of a Windows drive letter. It does not try other Unicode
// normalizations; Matches does.
func Encodes(cwd, folder string) bool {
	if cwd == "" || folder == "" {
		return false
	}
	// Claude Code encodes the directory as the shell gave it: "/a/b/"
	// becomes "-a-b-"; the same directory launched as "/a/b" is "-a-b".
	if encodes(EncodeUncapped(cwd), cwd, folder) {
		return true
	}
	t := trimSep(cwd)
	return t != cwd && encodes(EncodeUncapped(t), t, folder)
}

func encodes(enc, cwd, folder string) bool {
	if driveRe.MatchString(cwd) && len(folder) > 0 && len(enc) > 0 && strings.EqualFold(folder[:1], enc[:1]) {
		folder = enc[:1] + folder[1:] // the drive letter's case is the shell's
	}
	if folder == enc {
		return true // short names, and long ones written before 2.1.47
	}
	return len(enc) > MaxLen && strings.HasPrefix(folder, enc[:MaxLen]) && suffixRe.MatchString(folder[MaxLen:])
}

// Matches reports whether folder can be the project folder of a session
// launched in cwd: what Encodes accepts, plus the NFC and NFD spellings of
// a non-ASCII cwd (matched leniently, see the package documentation).
// CLAUDE_CODE_PROJECT_DIR_NAME overrides are not accepted; see MaybeOverride.
func Matches(cwd, folder string) bool {
	if Encodes(cwd, folder) {
		return true
	}
	cwd = trimSep(cwd)
	if cwd == "" || folder == "" || isASCII(cwd) {
		return false
	}
	if driveRe.MatchString(cwd) && len(folder) > 0 && strings.EqualFold(folder[:1], cwd[:1]) {
		folder = cwd[:1] + folder[1:]
	}
	toks := tokens(cwd)
	if match(toks, folder, false) {
		return true
	}
	// A capped name: the first 200 characters must be a prefix of some
	// spelling's encoding, followed by a hash.
	return len(folder) > MaxLen && suffixRe.MatchString(folder[MaxLen:]) && match(toks, folder[:MaxLen], true)
}

// trimSep drops trailing path separators, but keeps a root ("/", `C:\`).
func trimSep(p string) string {
	for len(p) > 1 && (p[len(p)-1] == '/' || p[len(p)-1] == '\\') {
		if len(p) == 3 && p[1] == ':' {
			break
		}
		p = p[:len(p)-1]
	}
	return p
}

// Key returns a form of cwd under which two spellings of one directory
// compare equal: trailing separators removed, a Windows drive letter in
// upper case, and a POSIX path cleaned of "." and "//" segments.
func Key(cwd string) string {
	cwd = trimSep(cwd)
	if driveRe.MatchString(cwd) {
		return strings.ToUpper(cwd[:1]) + cwd[1:]
	}
	if strings.HasPrefix(cwd, "/") {
		return path.Clean(cwd)
	}
	return cwd
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// Absolute reports whether name may be the folder Claude Code names after
// an absolute launch directory: "-home-me-app" (of "/home/me/app") or
// "C--Users-me" (of `C:\Users\me`).
func Absolute(name string) bool {
	return len(name) > 0 && name[0] == '-' || len(name) > 2 && name[1] == '-' && name[2] == '-' && isLetter(name[0])
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// alt is one way a token can be written: an optional lead character
// (0: none; anyLetter: any ASCII letter; otherwise that byte) followed by
// min..max dashes.
type alt struct {
	lead     byte
	min, max int
}

const anyLetter = 0xFF

type token []alt

// tokens turns cwd into the lenient pattern Matches uses for the NFC/NFD
// spellings of its non-ASCII characters.
func tokens(cwd string) []token {
	rs := []rune(cwd)
	var out []token
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case isAlnum(r):
			// Followed by combining marks, the letter and its marks may
			// compose into one precomposed character: one '-'.
			j := i + 1
			for j < len(rs) && unicode.Is(unicode.Mn, rs[j]) {
				j++
			}
			if j == i+1 {
				out = append(out, token{{lead: byte(r)}})
				continue
			}
			n := j - i - 1 // marks
			out = append(out, token{{lead: byte(r), min: 1, max: n}, {min: 1, max: n}})
			i = j - 1
		case unicode.Is(unicode.Mn, r) || r >= 0x1161 && r <= 0x1175 || r >= 0x11A8 && r <= 0x11C2:
			// A mark after a non-ASCII character may compose with it, and so
			// may a Hangul vowel or final jamo with the jamo before it.
			out = append(out, token{{min: 0, max: 1}})
		case r >= 0x10000:
			out = append(out, token{{min: 2, max: 2}})
		default:
			if r < 0x80 {
				out = append(out, token{{min: 1, max: 1}})
				continue
			}
			// One unit in NFC; in NFD a base letter and marks, Hangul jamo,
			// or kana and a voicing mark.
			out = append(out, token{{min: 1, max: 4}, {lead: anyLetter, min: 1, max: 3}})
		}
	}
	return out
}

// match reports whether the tokens can spell s exactly, or, when prefix is
// set, whether s is a prefix of some spelling.
func match(toks []token, s string, prefix bool) bool {
	cur := map[int]bool{0: true}
	for _, t := range toks {
		next := map[int]bool{}
		for p := range cur {
			if prefix && p == len(s) {
				return true
			}
			for _, a := range t {
				q := p
				if a.lead != 0 {
					if q >= len(s) {
						continue
					}
					if a.lead == anyLetter && !isLetter(s[q]) || a.lead != anyLetter && s[q] != a.lead {
						continue
					}
					q++
				}
				for d := 0; d <= a.max; d++ {
					if d >= a.min {
						next[q+d] = true
					}
					if q+d >= len(s) {
						if prefix && d < a.min {
							next[len(s)] = true // cut inside the dashes
						}
						break
					}
					if s[q+d] != '-' {
						break
					}
				}
			}
		}
		if len(next) == 0 {
			return false
		}
		cur = next
	}
	return cur[len(s)]
}

// WrittenBy narrows Encodes and Matches for a session whose launch entry
// was written by version v: a long name must be spelled as that version
// spells it. Before 2.1.47 long names were written uncapped; from 2.1.47
// capped with a hash, the 32-bit one (Hash) in Node builds and in native
// builds from 2.1.101, another one in native builds 2.1.47-2.1.98. An
// unknown v ("", or not x.y.z) accepts every spelling.
func WrittenBy(cwd, folder, v string) bool {
	if !known(v) || len(folder) <= MaxLen {
		return true
	}
	t := trimSep(cwd)
	if folder == EncodeUncapped(t) || folder == EncodeUncapped(cwd) {
		return before(v, 2, 1, 47) // uncapped: only before capping began
	}
	switch {
	case before(v, 2, 1, 47):
		return false // a capped name from a version that did not cap
	case !before(v, 2, 1, 101):
		suffix := folder[MaxLen:]
		return suffix == "-"+Hash(t) || suffix == "-"+Hash(cwd)
	}
	return true
}

// known reports whether v is a version x.y.z.
func known(v string) bool {
	_, ok := parseVersion(v)
	return ok
}

// before reports whether version v is older than a.b.c (false when v does
// not parse).
func before(v string, a, b, c int) bool {
	n, ok := parseVersion(v)
	if !ok {
		return false
	}
	want := [3]int{a, b, c}
	for i := range n {
		if n[i] != want[i] {
			return n[i] < want[i]
		}
	}
	return false
}

func parseVersion(v string) ([3]int, bool) {
	var n [3]int
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return n, false
	}
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 {
			return n, false
		}
		n[i] = x
	}
	return n, true
}

// EncodeFor is the name Claude Code version v gives the launch directory p:
// uncapped before 2.1.47, else Encode (for native builds 2.1.47-2.1.98 the
// hash differs; see WrittenBy).
func EncodeFor(p, v string) string {
	if before(v, 2, 1, 47) {
		return EncodeUncapped(p)
	}
	return Encode(p)
}
