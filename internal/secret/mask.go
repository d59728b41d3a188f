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
	b := []byte(text)
	for _, sp := range spans {
		for i := max(0, sp[0]); i < min(len(b), sp[1]); i++ {
			b[i] = '*'
		}
	}
	return string(b)
}
