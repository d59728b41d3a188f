package model

import (
	"hash/maphash"
	"sync"

	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/schema"
)

// problemCache keeps the schema problems of the lines the fast check could
// not clear, by the line's bytes, for the rest of the run: the same line in
// another file (a resumed session's copy of its predecessor, an exported
// copy of a session) is not validated by jsonschema/v5 again. The zero
// value is ready.
type problemCache struct {
	mu sync.Mutex
	m  map[problemKey][]schema.Problem
}

// problemKey names a line by two independent 64-bit hashes of its bytes
// (and the kind of file, which chooses the schema).
type problemKey struct {
	h1, h2 uint64
	kind   layout.Kind
	n      int
}

// maxCachedLines bounds the cache: past it, lines are validated as before.
const maxCachedLines = 1 << 14

var problemSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func keyOf(raw []byte, kind layout.Kind) problemKey {
	return problemKey{maphash.Bytes(problemSeeds[0], raw), maphash.Bytes(problemSeeds[1], raw), kind, len(raw)}
}

func (c *problemCache) get(k problemKey) ([]schema.Problem, bool) {
	c.mu.Lock()
	p, ok := c.m[k]
	c.mu.Unlock()
	return p, ok
}

func (c *problemCache) put(k problemKey, p []schema.Problem) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[problemKey][]schema.Problem{}
	}
	if len(c.m) < maxCachedLines {
		c.m[k] = p
	}
	c.mu.Unlock()
}
