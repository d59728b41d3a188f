package secret

import "sync"

// matcher finds every keyword in a text in one pass: an Aho-Corasick
// automaton made a full DFA over ASCII-lowercased bytes, whose alphabet is
// the bytes the keywords use (every other byte is one class).
type matcher struct {
	kws      []string
	lens     []int // keyword lengths
	maxLen   int   // the longest keyword's
	oneChain bool  // read every text in one chain (the reference, for tests)
	// ted finds the same occurrences 64 bytes at a time, where the
	// processor can (AVX-512 VBMI or AVX2; nil elsewhere): each uses it, the
	// automaton is the portable path and the reference (teddy.go).
	ted *teddy
	// auto is the automaton, built at its first use (with the finder it
	// is only the tests' reference); copies of a matcher share it.
	auto *lazyDFA
	// follow, per keyword (nil: none), says which bytes may follow it:
	// a place followed by another is not reported (see Scanner.follows).
	follow []*follow
}

// follow is what may follow a keyword of n bytes (n < 4): at[j] holds the
// bytes allowed at offset j from its start, for j from n to last (past
// last, any). A place whose text ends before offset last is not
// reported either: a lead longer than the text starts no match.
type follow struct {
	n, last int
	at      [4]byteSet
}

// allows reports whether the keyword f is of may start at text[i].
func (f *follow) allows(text []byte, i int) bool {
	if i+f.last >= len(text) {
		return false
	}
	for j := f.n; j <= f.last; j++ {
		if !f.at[j].has(text[i+j]) {
			return false
		}
	}
	return true
}

type lazyDFA struct {
	once sync.Once
	d    *dfa
}

// dfa is the automaton's tables.
type dfa struct {
	classes int
	class   [256]uint8
	// delta[state<<shift|class] is the next state. States are numbered
	// so that those where a keyword ends come last, from firstOut on.
	delta    []uint16
	shift    uint
	firstOut int
	out      [][]int // keywords (indexes) that end at each state
}

// newMatcher returns the matcher of kws; follow (nil, or one per keyword)
// narrows the places reported.
func newMatcher(kws []string, follow []*follow) *matcher {
	m := &matcher{kws: kws, auto: new(lazyDFA), follow: follow}
	for _, k := range kws {
		m.lens = append(m.lens, len(k))
		m.maxLen = max(m.maxLen, len(k))
	}
	if tedNative != tedGo {
		if m.ted = newTeddy(kws, follow); m.ted != nil {
			m.ted.path = tedNative
		}
	}
	return m
}

// dfa returns the automaton, built once.
func (m *matcher) dfa() *dfa {
	m.auto.once.Do(func() { m.auto.d = newDFA(m.kws) })
	return m.auto.d
}

func newDFA(kws []string) *dfa {
	m := &dfa{classes: 1}
	for _, k := range kws {
		for i := 0; i < len(k); i++ {
			c := k[i]
			if m.class[c] == 0 {
				m.class[c] = uint8(m.classes)
				m.classes++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		m.class[c] = m.class[c+'a'-'A']
	}
	// The trie.
	type node struct {
		next []int32
		fail int32
		out  []int
	}
	nodes := []*node{{next: make([]int32, m.classes)}}
	for ki, k := range kws {
		s := 0
		for i := 0; i < len(k); i++ {
			c := m.class[k[i]]
			if nodes[s].next[c] == 0 {
				nodes = append(nodes, &node{next: make([]int32, m.classes)})
				nodes[s].next[c] = int32(len(nodes) - 1)
			}
			s = int(nodes[s].next[c])
		}
		nodes[s].out = append(nodes[s].out, ki)
	}
	// Failure links, breadth first; missing transitions become the
	// failure state's, which makes the automaton a DFA.
	queue := []int32{}
	for c := 0; c < m.classes; c++ {
		if n := nodes[0].next[c]; n != 0 {
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		f := nodes[nodes[s].fail]
		nodes[s].out = append(nodes[s].out, f.out...)
		for c := 0; c < m.classes; c++ {
			n := nodes[s].next[c]
			if n == 0 {
				nodes[s].next[c] = f.next[c]
				continue
			}
			nodes[n].fail = f.next[c]
			if nodes[n].fail == n {
				nodes[n].fail = 0
			}
			queue = append(queue, n)
		}
	}
	// Number the states: the root first, those without output, then
	// those with.
	order := make([]int, 0, len(nodes))
	for i, n := range nodes {
		if len(n.out) == 0 {
			order = append(order, i)
		}
	}
	m.firstOut = len(order)
	for i, n := range nodes {
		if len(n.out) > 0 {
			order = append(order, i)
		}
	}
	num := make([]int, len(nodes))
	for k, i := range order {
		num[i] = k
	}
	for 1<<m.shift < m.classes {
		m.shift++
	}
	m.delta = make([]uint16, len(nodes)<<m.shift)
	m.out = make([][]int, len(nodes))
	for i, n := range nodes {
		for c, t := range n.next {
			m.delta[num[i]<<m.shift|c] = uint16(num[t])
		}
		m.out[num[i]] = n.out
	}
	return m
}

// each calls fn(keyword, start) for every keyword occurrence in text, in
// no set order; it stops when fn returns false. With the SIMD finder
// (m.ted) it reads text 64 bytes at a time; else by the automaton:
//
// The automaton's state after a byte depends only on the last maxLen bytes
// read (the longest keyword prefix they end with), so a long text is read
// as four quarters at once, each after the first from the state that its
// maxLen bytes before give: four independent chains of table loads, which
// the processor overlaps, where one chain waits for each load (3x faster).
func (m *matcher) each(text []byte, fn func(ki, start int) bool) {
	if m.ted != nil && !m.oneChain {
		m.ted.each(text, fn)
		return
	}
	d := m.dfa()
	delta, shift, first, class := d.delta, d.shift, uint16(d.firstOut), &d.class
	n := len(text)
	q := n / 4
	if q < 4*m.maxLen || m.oneChain {
		var s uint16
		for i, b := range text {
			s = delta[int(s)<<shift|int(class[b])]
			if s >= first && !m.report(text, s, i, fn) {
				return
			}
		}
		return
	}
	var s0, s1, s2, s3 uint16
	for j := q - m.maxLen; j < q; j++ {
		s1 = delta[int(s1)<<shift|int(class[text[j]])]
		s2 = delta[int(s2)<<shift|int(class[text[q+j]])]
		s3 = delta[int(s3)<<shift|int(class[text[2*q+j]])]
	}
	t0, t1, t2, t3 := text[:q], text[q:2*q], text[2*q:3*q], text[3*q:4*q]
	for i := range t0 {
		s0 = delta[int(s0)<<shift|int(class[t0[i]])]
		s1 = delta[int(s1)<<shift|int(class[t1[i]])]
		s2 = delta[int(s2)<<shift|int(class[t2[i]])]
		s3 = delta[int(s3)<<shift|int(class[t3[i]])]
		if s0 >= first && !m.report(text, s0, i, fn) {
			return
		}
		if s1 >= first && !m.report(text, s1, q+i, fn) {
			return
		}
		if s2 >= first && !m.report(text, s2, 2*q+i, fn) {
			return
		}
		if s3 >= first && !m.report(text, s3, 3*q+i, fn) {
			return
		}
	}
	for i := 4 * q; i < n; i++ {
		s3 = delta[int(s3)<<shift|int(class[text[i]])]
		if s3 >= first && !m.report(text, s3, i, fn) {
			return
		}
	}
}

// report calls fn for each keyword that ends at byte i in state s.
func (m *matcher) report(text []byte, s uint16, i int, fn func(ki, start int) bool) bool {
	for _, ki := range m.auto.d.out[s] {
		start := i + 1 - m.lens[ki]
		if m.follow != nil && m.follow[ki] != nil && !m.follow[ki].allows(text, start) {
			continue
		}
		if !fn(ki, start) {
			return false
		}
	}
	return true
}
