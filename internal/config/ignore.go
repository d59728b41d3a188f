package config

import (
	"fmt"
	"strings"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/rules"
)

// Filter drops the findings on excluded paths and those an ignore covers.
// It returns what is left and, as unused-ignore findings (not yet graded by
// the run's rule selection), the ignores that covered nothing. An ignore
// whose rules did not all run (on reports whether a rule ran) is never
// called unused: with its rule off it could not have matched. Globs match a
// finding's path or its key (key returns the path relative to the data root
// for a reported path; nil: the path only).
func (c *Config) Filter(fs []finding.Finding, on func(id string) bool, key func(path string) string) (kept, unused []finding.Finding) {
	if c == nil {
		return fs, nil
	}
	used := make([]bool, len(c.Ignores))
	kept = fs[:0:0]
	for _, f := range fs {
		paths := []string{f.Path}
		if key != nil {
			if k := key(f.Path); k != f.Path {
				paths = append(paths, k)
			}
		}
		if c.Excluded(paths...) {
			continue
		}
		ignored := false
		for i, ig := range c.Ignores {
			if ig.covers(&f, paths) {
				used[i] = true
				ignored = true
			}
		}
		if !ignored {
			kept = append(kept, f)
		}
	}
	for i, ig := range c.Ignores {
		if used[i] {
			continue
		}
		allOn := true
		for _, id := range ig.Rules {
			if !on(id) {
				allOn = false
			}
		}
		if !allOn {
			continue
		}
		unused = append(unused, finding.Finding{
			Rule:     rules.UnusedIgnore.ID,
			Severity: rules.UnusedIgnore.Severity,
			Path:     c.Path,
			Line:     ig.Line,
			Column:   ig.Column,
			Message: fmt.Sprintf("this ignore (path %s, rules %s) matched no finding in this run; remove it if its reason no longer holds: %s",
				quote(ig.Path.Pattern), strings.Join(ig.Rules, ", "), quote(ig.Reason)),
		})
	}
	return kept, unused
}

func (ig *Ignore) covers(f *finding.Finding, paths []string) bool {
	if !contains(ig.Rules, f.Rule) {
		return false
	}
	for _, p := range paths {
		if ig.Path.Match(p) {
			return true
		}
	}
	return false
}
