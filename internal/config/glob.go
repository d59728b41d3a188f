package config

import (
	"errors"
	"path"
	"strings"
)

// Glob matches the slash-separated paths ccvet reports. `*`, `?` and `[…]`
// match within one path element (as path.Match); `**` as a whole element
// matches any number of elements, none included. A pattern without `/`
// matches a name at any depth, as in .gitignore; a pattern that matches a
// folder also matches everything below it. A leading "./" is ignored.
type Glob struct {
	Pattern      string
	Line, Column int // where it is written, when it comes from a file
	segs         []string
}

// NewGlob compiles a pattern.
func NewGlob(pattern string) (*Glob, error) {
	p := strings.TrimSpace(pattern)
	if p == "" {
		return nil, errors.New("empty pattern")
	}
	p = strings.TrimPrefix(p, "./")
	if !strings.Contains(strings.TrimSuffix(p, "/"), "/") {
		p = "**/" + p
	}
	var segs []string
	for _, s := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		if s == "**" {
			if len(segs) > 0 && segs[len(segs)-1] == "**" {
				continue
			}
		} else if strings.Contains(s, "**") {
			return nil, errors.New("pattern " + quote(pattern) + ": `**` must be a whole path element (a/**/b)")
		} else if _, err := path.Match(s, ""); err != nil {
			return nil, errors.New("pattern " + quote(pattern) + ": malformed (an unclosed [ or a trailing \\)")
		}
		segs = append(segs, s)
	}
	// Everything below a matching folder matches too.
	if segs[len(segs)-1] != "**" {
		segs = append(segs, "**")
	}
	return &Glob{Pattern: pattern, segs: segs}, nil
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// Match reports whether the reported path p matches.
func (g *Glob) Match(p string) bool {
	p = strings.TrimPrefix(p, "./")
	return matchSegs(g.segs, strings.Split(p, "/"))
}

// matchSegs matches path elements against pattern elements. Each pair of
// positions is decided once (memo), so several ** cost the product of
// the two lengths, not a retry of every split.
func matchSegs(pat, name []string) bool {
	w := len(name) + 1
	memo := make([]uint8, (len(pat)+1)*w) // 0 unknown, 1 no, 2 yes
	var match func(i, j int) bool
	match = func(i, j int) bool {
		k := i*w + j
		if memo[k] != 0 {
			return memo[k] == 2
		}
		var ok bool
		switch {
		case i == len(pat):
			ok = j == len(name)
		case pat[i] == "**":
			// none of the remaining elements, or one more
			ok = match(i+1, j) || j < len(name) && match(i, j+1)
		case j == len(name):
			ok = false
		default:
			m, _ := path.Match(pat[i], name[j])
			ok = m && match(i+1, j+1)
		}
		memo[k] = 1
		if ok {
			memo[k] = 2
		}
		return ok
	}
	return match(0, 0)
}
