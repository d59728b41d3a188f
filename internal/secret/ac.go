package secret

// matcher finds every keyword in a text in one pass: an Aho-Corasick
// automaton made a full DFA over ASCII-lowercased bytes, whose alphabet is
// the bytes the keywords use (every other byte is one class).
type matcher struct {
	classes int
	class   [256]uint8
	// delta[state<<shift|class] is the next state. States are numbered
	// so that those where a keyword ends come last, from firstOut on.
	delta    []uint16
	shift    uint
	firstOut int
	out      [][]int // keywords (indexes) that end at each state
	lens     []int   // keyword lengths
}

func newMatcher(kws []string) *matcher {
	m := &matcher{classes: 1}
	for _, k := range kws {
		for i := 0; i < len(k); i++ {
			c := k[i]
			if m.class[c] == 0 {
				m.class[c] = uint8(m.classes)
				m.classes++
			}
		}
		m.lens = append(m.lens, len(k))
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
// the order their ends come; it stops when fn returns false.
func (m *matcher) each(text []byte, fn func(ki, start int) bool) {
	s, delta, shift, first := 0, m.delta, m.shift, m.firstOut
	for i, b := range text {
		s = int(delta[s<<shift|int(m.class[b])])
		if s >= first {
			for _, ki := range m.out[s] {
				if !fn(ki, i+1-m.lens[ki]) {
					return
				}
			}
		}
	}
}
