package secret

// KeywordHits counts the keyword occurrences in text (the keyword pass).
func KeywordHits(s *Scanner, text []byte) int {
	n := 0
	s.ac.each(text, func(int, int) bool { n++; return true })
	return n
}
