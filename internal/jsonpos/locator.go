package jsonpos

import (
	"sort"
	"unicode/utf8"
)

// Locator answers Find and Column for one document many times over,
// each in time that does not grow with the document: an object or array a
// pointer goes through is indexed the first time (its members by name, the
// last one winning; the offsets of its elements), and the code points of
// the document are counted once, at checkpoints. A rule that reports on
// every block of a line of a hundred thousand blocks so reads it once, not
// once a block. Its answers are Find's and Column's, malformed documents
// included. Not safe for concurrent use.
type Locator struct {
	doc    []byte
	direct bool // no index: each question read from the start (see Direct)
	objs   map[int]*objIndex
	arrs   map[int]*arrIndex
	// cps[k] is a position the decoding of doc from its start reaches
	// (no code point straddles it), at or after k*colStep, and cpn[k]
	// the code points before it (as utf8.RuneCount counts them).
	cps, cpn []int
}

// IndexFrom is the length from which a document asked about many times
// pays for a Locator's index: below it, reading it from its start for each
// question costs less.
const IndexFrom = 8 << 10

// colStep is how far apart the Column checkpoints are.
const colStep = 4096

// objIndex is what member finds in one object, for every name: the offsets
// of the last member so named before the object ends or stops being well
// formed, and whether it stops (member then gives 0, 0 for every name).
type objIndex struct {
	at     map[string][2]int
	broken bool
}

// arrIndex is where element sees each element of one array start, and
// where it stops.
type arrIndex struct {
	starts []int
	end    int
}

// NewLocator returns a Locator over doc, which must not change while the
// Locator is used.
func NewLocator(doc []byte) *Locator {
	return &Locator{doc: doc, objs: map[int]*objIndex{}, arrs: map[int]*arrIndex{}}
}

// Direct returns a Locator over doc that indexes nothing: each question is
// Find's and Column's on the whole document, as cheap as they are for a
// short one asked about once.
func Direct(doc []byte) *Locator { return &Locator{doc: doc, direct: true} }

// Doc is the document the Locator reads.
func (l *Locator) Doc() []byte { return l.doc }

// Find is Find(l.Doc(), ptr, key).
func (l *Locator) Find(ptr string, key bool) (off int, ok bool) {
	if l.direct {
		return Find(l.doc, ptr, key)
	}
	return find(l.doc, ptr, key, l.member, l.element)
}

// member is scanner.member through the object's index.
func (l *Locator) member(i int, tok string) (kpos, vpos int, found bool) {
	x := l.objs[i]
	if x == nil {
		x = l.indexObject(i)
		l.objs[i] = x
	}
	at, found := x.at[tok]
	if x.broken {
		return 0, 0, found
	}
	return at[0], at[1], found
}

// indexObject walks the object at i as scanner.member does, once for every
// name.
func (l *Locator) indexObject(i int) *objIndex {
	s := scanner{b: l.doc}
	x := &objIndex{at: map[string][2]int{}}
	i = s.space(i + 1)
	for i < len(s.b) && s.b[i] != '}' {
		if s.b[i] != '"' {
			x.broken = true
			return x
		}
		start := i
		end := s.str(i)
		name, ok := unquote(s.b[start:end])
		i = s.space(end)
		if i >= len(s.b) || s.b[i] != ':' {
			x.broken = true
			return x
		}
		i = s.space(i + 1)
		if ok {
			x.at[name] = [2]int{start, i}
		}
		i = s.space(s.value(i))
		if i < len(s.b) && s.b[i] == ',' {
			i = s.space(i + 1)
		}
	}
	return x
}

// element is scanner.element through the array's index.
func (l *Locator) element(i, idx int) (int, bool) {
	x := l.arrs[i]
	if x == nil {
		x = l.indexArray(i)
		l.arrs[i] = x
	}
	if idx < len(x.starts) {
		return x.starts[idx], true
	}
	return x.end, false
}

// indexArray walks the array at i as scanner.element does, to its end.
func (l *Locator) indexArray(i int) *arrIndex {
	s := scanner{b: l.doc}
	x := &arrIndex{}
	i = s.space(i + 1)
	for i < len(s.b) && s.b[i] != ']' {
		x.starts = append(x.starts, i)
		next := s.space(s.value(i))
		if next <= i {
			break
		}
		i = next
		if i < len(s.b) && s.b[i] == ',' {
			i = s.space(i + 1)
		}
	}
	x.end = i
	return x
}

// Column is Column(l.Doc(), off).
func (l *Locator) Column(off int) int {
	if l.direct {
		return Column(l.doc, off)
	}
	off = min(max(off, 0), len(l.doc))
	if l.cps == nil {
		l.checkpoints()
	}
	// The last checkpoint at or before off.
	k := sort.SearchInts(l.cps, off+1) - 1
	return l.cpn[k] + utf8.RuneCount(l.doc[l.cps[k]:off]) + 1
}

// checkpoints counts the code points of the document once.
func (l *Locator) checkpoints() {
	l.cps, l.cpn = []int{0}, []int{0}
	n, next := 0, colStep
	for i := 0; i < len(l.doc); {
		if i >= next {
			l.cps, l.cpn = append(l.cps, i), append(l.cpn, n)
			next = i + colStep
		}
		if l.doc[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRune(l.doc[i:])
			i += size
		}
		n++
	}
}
