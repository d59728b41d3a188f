// Package suggest finds the known names closest to a misspelled one.
package suggest

import (
	"sort"
	"strings"
)

// Distance is the Levenshtein distance between a and b, in bytes (the names
// ccvet suggests, rule ids and configuration keys, are ASCII).
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Closest returns up to n of names close to name: those it is a part of (or
// that are a part of it), then those within a few edits, nearest first, in
// the order of names among equals. The comparison ignores case and the
// spaces around name.
func Closest(name string, names []string, n int) []string {
	name = strings.ToLower(strings.TrimSpace(name))
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	for _, c := range names {
		d := Distance(name, c)
		switch {
		case name != "" && (strings.Contains(c, name) || strings.Contains(name, c)):
			d = 0
		case d > max(2, len(c)/3):
			continue
		}
		cs = append(cs, cand{c, d})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].dist < cs[j].dist })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}
