package secret

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

// MaskLine is one line of JSON Lines (or a line that does not parse) with
// the bytes of every secret on it replaced by '*': a masked copy, or line
// itself when it holds none. It masks what Spans finds and also what the
// line read as one string body finds (ScanBroken, escapes undone): a key
// in a field the rule does not scan (an id, a link, the entry type, a
// timestamp) or in a member name is not a finding, but a printed line
// must not show it either (a finding's message masks it too).
func (s *Scanner) MaskLine(line []byte) []byte {
	spans := s.Spans(line)
	s.ScanBroken(line, func(f Found) { spans = append(spans, [2]int{f.RawStart, f.RawEnd}) })
	if len(spans) == 0 {
		return line
	}
	return star(append([]byte(nil), line...), spans)
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
