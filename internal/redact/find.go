package redact

import (
	"bytes"
	"sort"
)

// finder finds many patterns in a text in one pass: a byte whose value
// starts no pattern is passed at once; at the others each group of
// patterns (by the length of their key, their first 1 to 8 bytes) is
// looked up by the text's next bytes, and the few patterns found are
// compared whole. A text costs its length times the groups (at most 8),
// not times the patterns.
type finder struct {
	pats   []string
	first  [256]bool
	groups []fgroup
	hits   []int
}

type fgroup struct {
	k     int
	byKey map[string][]int // key -> pattern indexes, ascending
}

const keyMax = 8

// newFinder indexes pats; an empty pattern is never found.
func newFinder(pats []string) *finder {
	fd := &finder{pats: pats}
	byLen := map[int]int{}
	for i, p := range pats {
		if p == "" {
			continue
		}
		k := min(len(p), keyMax)
		g, ok := byLen[k]
		if !ok {
			g = len(fd.groups)
			byLen[k] = g
			fd.groups = append(fd.groups, fgroup{k: k, byKey: map[string][]int{}})
		}
		fd.groups[g].byKey[p[:k]] = append(fd.groups[g].byKey[p[:k]], i)
		fd.first[p[0]] = true
	}
	return fd
}

// each calls fn(at, i) for every occurrence of every pattern i in text,
// by ascending at, and at one place by ascending i, overlapping ones
// included; it stops when fn returns false.
func (fd *finder) each(text []byte, fn func(at, i int) bool) {
	for at := 0; at < len(text); at++ {
		j := fd.skip(text[at:])
		if j < 0 {
			return
		}
		at += j
		fd.hits = fd.hits[:0]
		for gi := range fd.groups {
			g := &fd.groups[gi]
			if at+g.k > len(text) {
				continue
			}
			for _, i := range g.byKey[string(text[at:at+g.k])] {
				if bytes.HasPrefix(text[at:], []byte(fd.pats[i])) {
					fd.hits = append(fd.hits, i)
				}
			}
		}
		if len(fd.groups) > 1 {
			sort.Ints(fd.hits)
		}
		for _, i := range fd.hits {
			if !fn(at, i) {
				return
			}
		}
	}
}

// skip is how many bytes of text come before one that starts a pattern,
// -1 if none does.
func (fd *finder) skip(text []byte) int {
	for j, c := range text {
		if fd.first[c] {
			return j
		}
	}
	return -1
}

// any reports whether text holds one of the patterns.
func (fd *finder) any(text []byte) bool {
	found := false
	fd.each(text, func(int, int) bool {
		found = true
		return false
	})
	return found
}
