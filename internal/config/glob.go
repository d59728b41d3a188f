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

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			pat = pat[1:]
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
