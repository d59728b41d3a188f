package benchstore

import (
	"math/rand/v2"
	"strings"
)

// freshMin is the shortest string value freshText rewrites: the secret
// rule remembers the strings it found clean from 64 bytes on.
const freshMin = 64

// freshText returns data (JSON Lines) with the ASCII letters of every
// string value of freshMin bytes or more rewritten by copy k's own
// permutation of the alphabet (both cases alike), unless its member's name
// says it holds an id, a path, a cwd, a url, a version or a name that rules
// compare: the copy keeps its shape, its escapes, the text that repeats
// inside it and every value a check reads, and shares no long text with
// another copy. data is not written; the result is a new slice.
func freshText(data []byte, seed uint64, k int) []byte {
	var perm [256]byte
	for i := range perm {
		perm[i] = byte(i)
	}
	letters := []byte("abcdefghijklmnopqrstuvwxyz")
	rng := rand.New(rand.NewPCG(seed, uint64(k)))
	rng.Shuffle(len(letters), func(i, j int) { letters[i], letters[j] = letters[j], letters[i] })
	for i, c := range letters {
		perm['a'+i] = c
		perm['A'+i] = c - 'a' + 'A'
	}
	out := append([]byte(nil), data...)
	var key []byte
	for i := 0; i < len(out); i++ {
		if out[i] != '"' {
			continue
		}
		start := i + 1
		end := start
		for end < len(out) && out[end] != '"' {
			if out[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(out) {
			break
		}
		j := end + 1
		for j < len(out) && (out[j] == ' ' || out[j] == '\t') {
			j++
		}
		if j < len(out) && out[j] == ':' {
			key = out[start:end] // a member's name
		} else if end-start >= freshMin && freshKey(string(key)) {
			permute(out[start:end], &perm)
		}
		i = end
	}
	return out
}

// permute rewrites the letters of raw (a JSON string's bytes between its
// quotes) by perm, leaving escapes as they are.
func permute(raw []byte, perm *[256]byte) {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '\\':
			if i+1 < len(raw) && raw[i+1] == 'u' {
				i += 5
			} else {
				i++
			}
		case c < 0x80:
			raw[i] = perm[c]
		}
	}
}

// freshKey reports whether freshText may rewrite the value of a member of
// this name (as written, escapes and all).
func freshKey(name string) bool {
	l := strings.ToLower(name)
	if l == "id" || strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID") || strings.HasSuffix(l, "_id") {
		return false
	}
	for _, s := range []string{"uuid", "path", "cwd", "url", "version", "name", "type", "model", "slug", "branch", "timestamp", "time"} {
		if strings.Contains(l, s) {
			return false
		}
	}
	return true
}
