// Package ccversion reads and orders Claude Code version strings ("2.1.9" before "2.1.10", a pre-release before its release), one rule for every package that compares them.
package ccversion

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a Claude Code version: major.minor.patch and, for a
// pre-release, its pre-release identifiers ("beta.2" of "2.1.17-beta.2").
// Build metadata ("+abc") is not kept: it does not order versions.
type Version struct {
	Major, Minor, Patch int
	Pre                 string
}

// Parse reads a version as Claude Code and npm write it: "2.1.330",
// "2.1.330-beta.2", "2.1.330+build", with an optional leading "v",
// surrounding white space, and text after a space ignored ("2.1.330
// (Claude Code)", what `claude --version` prints). The three numbers are
// decimal digits; anything else does not parse.
func Parse(s string) (Version, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimPrefix(s, "v")
	s, _, _ = strings.Cut(s, "+")
	s, pre, hasPre := strings.Cut(s, "-")
	if hasPre && pre == "" {
		return Version{}, false
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return Version{}, false
	}
	var n [3]int
	for i, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return Version{}, false
		}
		x, err := strconv.ParseUint(p, 10, 31)
		if err != nil {
			return Version{}, false
		}
		n[i] = int(x)
	}
	return Version{Major: n[0], Minor: n[1], Patch: n[2], Pre: pre}, true
}

// String writes the version back: "2.1.330", "2.1.17-beta.2".
func (v Version) String() string {
	if v.Pre != "" {
		return fmt.Sprintf("%d.%d.%d-%s", v.Major, v.Minor, v.Patch, v.Pre)
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// Zero reports whether v is unset.
func (v Version) Zero() bool { return v == Version{} }

// Compare orders versions by semantic-version precedence: the numbers,
// then a pre-release before its release, pre-releases by their
// dot-separated identifiers (numeric ones numerically and before the
// others, the others in byte order, a shorter list first).
func (v Version) Compare(o Version) int {
	for _, d := range [3][2]int{{v.Major, o.Major}, {v.Minor, o.Minor}, {v.Patch, o.Patch}} {
		if d[0] != d[1] {
			if d[0] < d[1] {
				return -1
			}
			return 1
		}
	}
	switch {
	case v.Pre == o.Pre:
		return 0
	case v.Pre == "":
		return 1
	case o.Pre == "":
		return -1
	}
	return comparePre(v.Pre, o.Pre)
}

// Less reports whether v comes before o.
func (v Version) Less(o Version) bool { return v.Compare(o) < 0 }

func comparePre(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] == bs[i] {
			continue
		}
		na, ea := strconv.ParseUint(as[i], 10, 64)
		nb, eb := strconv.ParseUint(bs[i], 10, 64)
		switch {
		case ea == nil && eb == nil:
			if na < nb {
				return -1
			}
			return 1
		case ea == nil:
			return -1
		case eb == nil:
			return 1
		}
		return strings.Compare(as[i], bs[i])
	}
	switch {
	case len(as) < len(bs):
		return -1
	case len(as) > len(bs):
		return 1
	}
	return 0
}

// Compare orders version strings, a total order: those that parse by
// precedence (equal ones, such as "2.1.3" and "v2.1.3", in byte order),
// then those that do not, in byte order, then "" (no version) last.
func Compare(a, b string) int {
	if (a == "") != (b == "") {
		if a == "" {
			return 1
		}
		return -1
	}
	va, oka := Parse(a)
	vb, okb := Parse(b)
	switch {
	case oka && okb:
		if c := va.Compare(vb); c != 0 {
			return c
		}
	case oka:
		return -1
	case okb:
		return 1
	}
	return strings.Compare(a, b)
}

// Less reports whether version string a comes before b (see Compare).
func Less(a, b string) bool { return Compare(a, b) < 0 }
