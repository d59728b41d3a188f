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
// the bytes of every secret Spans finds on it replaced by '*': a masked
// copy, or line itself when it holds none.
func (s *Scanner) MaskLine(line []byte) []byte {
	spans := s.Spans(line)
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
