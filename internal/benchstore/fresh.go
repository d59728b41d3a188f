package benchstore

import "strings"

// freshMin is the shortest string value freshText rewrites: the secret
// rule remembers the strings it found clean from 64 bytes on.
const freshMin = 64

// freshText returns data (JSON Lines) with the first three ASCII letters
// of every string value of freshMin bytes or more replaced by letters
// that spell k (in base 26, each keeping its case), unless its member's
// name says it holds an id, a path, a cwd, a url, a version or a name that
// rules compare: the copy keeps its shape, its escapes, the text that
// repeats inside it, every value a check reads and, but for three letters
// a string, its text (so as many keywords for the secret rule to look at
// as the source has), and shares no long string with another copy. data
// is not written; the result is a new slice.
func freshText(data []byte, k int) []byte {
	out := append([]byte(nil), data...)
	var key []byte
	for i := 0; i < len(out); i++ {
		if out[i] != '"' {
			continue
		}
		start := i + 1
		end := stringEnd(out, start)
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
			spell(out[start:end], k)
		}
		i = end
	}
	return out
}

// spell replaces the first three ASCII letters of raw (a JSON string's
// bytes between its quotes, escapes left as they are) with the base-26
// digits of k, lowest first, as letters of the same case.
func spell(raw []byte, k int) {
	n := 0
	for i := 0; i < len(raw) && n < 3; i++ {
		c := raw[i]
		switch {
		case c == '\\':
			if i+1 < len(raw) && raw[i+1] == 'u' {
				i += 5
			} else {
				i++
			}
			continue
		case c >= 'a' && c <= 'z':
			raw[i] = 'a' + byte(k%26)
		case c >= 'A' && c <= 'Z':
			raw[i] = 'A' + byte(k%26)
		default:
			continue
		}
		k /= 26
		n++
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
