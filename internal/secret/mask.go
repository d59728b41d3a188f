package secret

import (
	"bytes"
	"strings"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/pathenc"
)

// Mask is text with the bytes of every secret the scanner finds in it
// replaced by '*': what a printer shows of a text it quotes (a prompt, a
// title, a finding's message). Mask before clipping: a key cut in two
// would no longer be found.
func (s *Scanner) Mask(text string) string {
	var spans [][2]int
	s.Scan([]byte(text), func(m Match) { spans = append(spans, [2]int{m.Start, m.End}) })
	if len(spans) == 0 {
		return text
	}
	return string(star([]byte(text), spans))
}

// MaskValue is value, a decoded string that a message or a listing
// quotes on its own (cut, or between other characters than the file's),
// with the bytes of every secret replaced by '*': what Mask finds in it,
// and what the rule finds in it as the file holds it, a JSON string
// ("…": several rules want a quote or a space after the key) under
// member name when name is not "" (the "name = value" rules read a
// credential's name before it). Mask it before it is cut.
func (s *Scanner) MaskValue(name, value string) string {
	var spans [][2]int
	s.Scan([]byte(value), func(m Match) { spans = append(spans, [2]int{m.Start, m.End}) })
	pre := `"`
	if name != "" {
		pre = `"` + name + `": "`
	}
	text := []byte(pre + value + `"`)
	s.Scan(text, func(m Match) {
		if st, en := max(m.Start, len(pre))-len(pre), min(m.End, len(text)-1)-len(pre); st < en {
			spans = append(spans, [2]int{st, en})
		}
	})
	if len(spans) == 0 {
		return value
	}
	return string(star([]byte(value), spans))
}

// MaskPath is MaskValue("", path) with, besides, each name of path
// (between slashes or backslashes) masked on its own, and without its
// extension: several rules want a quote or a space after a key, not a '/'
// or a '.' (a transcript named "<key>.jsonl", a folder named after a cwd
// that holds one), and as the cwd it may be named after, each '-' read
// as '_' and as '.' (a cwd holding "ghp_…" names a folder "…ghp-…"). The
// whole is masked too: a key may hold a '/'.
func (s *Scanner) MaskPath(path string) string {
	out := s.MaskValue("", path)
	var b []byte
	over := func(at int, masked string) {
		for i := range masked {
			if masked[i] == '*' && path[at+i] != '*' {
				if b == nil {
					b = []byte(out)
				}
				b[at+i] = '*'
			}
		}
	}
	for start := 0; start < len(path); {
		end := start
		for end < len(path) && path[end] != '/' && path[end] != '\\' {
			end++
		}
		if name := path[start:end]; len(name) >= minSecret && (start > 0 || end < len(path)) {
			over(start, s.MaskValue("", name))
		}
		if name := path[start:end]; len(name) >= minSecret {
			if i := strings.LastIndexByte(name, '.'); i >= minSecret {
				over(start, s.MaskValue("", name[:i]))
			}
			// A project folder is named after its cwd with every
			// character but a letter or a digit written '-': a cwd
			// holding "ghp_…" gives a folder holding "ghp-…". Try the
			// two separators keys hold, in place of every '-' (the
			// same length, so the masked bytes fall where they were).
			if pathenc.Absolute(name) {
				for _, sep := range []string{"_", "."} {
					over(start, s.MaskValue("", strings.ReplaceAll(name, "-", sep)))
				}
			}
		}
		start = end + 1
	}
	if b == nil {
		return out
	}
	return string(b)
}

// MaskLine is one line of JSON Lines (or a line that does not parse) with
// the bytes of every secret on it replaced by '*': a masked copy, or line
// itself when it holds none. It masks what Spans finds and, on a line
// that parses, what the strings the rule does not scan hold (member names,
// ids, links, the entry type, a timestamp, base64 data, ledger tails),
// each decoded: such a key is not a finding, but a printed line must not
// show it either (a finding's message masks it too).
func (s *Scanner) MaskLine(line []byte) []byte {
	var t jsontree.Tree
	out, _ := s.maskLine(&t, line)
	return out
}

// maskLine is MaskLine, parsing line into t; parsed says whether it tried
// (not when line holds no place a secret could be), and then t.Nodes is
// empty if line does not parse.
func (s *Scanner) maskLine(t *jsontree.Tree, line []byte) (out []byte, parsed bool) {
	if !bytes.Contains(line, []byte(`\u`)) && !s.Candidates(line) {
		return line, false
	}
	var spans [][2]int
	add := func(f Found) { spans = append(spans, [2]int{f.RawStart, f.RawEnd}) }
	if err := t.Parse(line); err == nil {
		s.ScanTree(t, nil, nil, add)
		if len(t.Nodes) > 0 {
			s.scanUnscanned(t, jsontree.Root, false, nil, add)
		}
	} else {
		t.Nodes = t.Nodes[:0]
		s.ScanBroken(line, add)
	}
	if len(spans) == 0 {
		return line, true
	}
	return star(append([]byte(nil), line...), spans), true
}

// MaskDocument is MaskLine for a JSON document a command prints (a report,
// a listing): besides, every string of it that may be a path (one that
// holds a '/', a '\\' or a '.', and is no longer than maxPath bytes: a
// long text is not one) is masked as MaskPath masks it. The document is
// parsed once for both.
func (s *Scanner) MaskDocument(doc []byte) []byte {
	var t jsontree.Tree
	out, parsed := s.maskLine(&t, doc)
	if parsed && len(t.Nodes) == 0 || !parsed && t.Parse(doc) != nil {
		return out // not JSON (a text report): MaskLine's reading is all
	}
	star := func(at int) {
		if &out[0] == &doc[0] {
			out = append([]byte(nil), doc...)
		}
		out[at] = '*'
	}
	var dec []byte
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		if nd.Kind != jsontree.String || nd.End-nd.Start < minSecret || nd.End-nd.Start > maxPath {
			continue
		}
		raw := t.RawBytes(i)
		if !bytes.ContainsAny(raw, `/\.`) && !pathenc.Absolute(string(raw)) {
			continue // not a path, nor a project folder's name
		}
		// A string with escapes (every Windows path: its backslashes are
		// written \\ in JSON) is masked decoded, each masked run written over
		// the raw bytes (whole escapes) that decode to it.
		text := raw
		if nd.Esc {
			dec = t.AppendStr(dec[:0], i)
			text = dec
		}
		m := s.MaskPath(string(text))
		var cur RawCursor
		for j := 0; j < len(m); {
			if m[j] != '*' || text[j] == '*' {
				j++
				continue
			}
			e := j
			for e < len(m) && m[e] == '*' && text[e] != '*' {
				e++
			}
			rs, re := j, e
			if nd.Esc {
				rs, re = cur.Span(raw, j, e)
			}
			for r := rs; r < re; r++ {
				star(int(nd.Start) + r)
			}
			j = e
		}
	}
	return out
}

// maxPath is the longest string MaskDocument reads as a path: longer ones
// are texts (a prompt, a tool's output), which MaskLine masks, and reading
// each of their names again cost 25% of resume --format json's time on a
// transcript of 4 KB prompts full of paths.
const maxPath = 1024

// scanUnscanned calls fn for each secret in what ScanTree passes by under
// node i: every member name, and every string under a member it skips
// (skipped: i is under one already).
func (s *Scanner) scanUnscanned(t *jsontree.Tree, i int, skipped bool, key []byte, fn func(Found)) {
	switch t.Nodes[i].Kind {
	case jsontree.String:
		if skipped {
			s.scanString(t, i, fn)
		}
	case jsontree.Array:
		skipped = skipped || string(key) == "tail"
		for c := t.Child(i); c >= 0 && c < t.Next(i); c = t.Next(c) {
			s.scanUnscanned(t, c, skipped, nil, fn)
		}
	case jsontree.Object:
		n := t.Len(i)
		k := t.Child(i)
		for m := 0; m < n; m++ {
			v := k + 1
			s.scanString(t, k, fn)
			kb := t.RawBytes(k)
			if t.Nodes[k].Esc {
				kb = t.AppendStr(nil, k)
			}
			skip := skipped || skipKey(kb) || string(kb) == "data" && t.StrIs(t.Get(i, "type"), "base64")
			s.scanUnscanned(t, v, skip, kb, fn)
			k = t.Next(v)
		}
	}
}

// scanString calls fn for each secret in string node i, decoded, with its
// place in the raw line.
func (s *Scanner) scanString(t *jsontree.Tree, i int, fn func(Found)) {
	nd := &t.Nodes[i]
	if nd.End-nd.Start < minSecret {
		return
	}
	raw := t.RawBytes(i)
	text := raw
	if nd.Esc {
		text = t.AppendStr(nil, i)
	}
	start := int(nd.Start)
	var cur RawCursor
	s.Scan(text, func(m Match) {
		f := Found{Match: m, RawStart: m.Start, RawEnd: m.End}
		if nd.Esc {
			f.RawStart, f.RawEnd = cur.Span(raw, m.Start, m.End)
		}
		f.RawStart += start
		f.RawEnd += start
		fn(f)
	})
}

// star writes '*' over the bytes of b that spans cover (cut to b) and
// returns b.
func star(b []byte, spans [][2]int) []byte {
	for _, sp := range spans {
		for i := max(0, sp[0]); i < min(len(b), sp[1]); i++ {
			b[i] = '*'
		}
	}
	return b
}
