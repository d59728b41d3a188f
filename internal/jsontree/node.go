package jsontree

// Node returns the tree and node index of a value read from a tree, for a
// caller that walks the nodes itself (Tree's methods); nil for a value
// decoded by encoding/json or a missing one.
func (v Val) Node() (*Tree, int) {
	if v.t == nil || v.i < 0 {
		return nil, -1
	}
	return v.t, v.i
}

// Decoded returns the value encoding/json decoded that v wraps (AnyVal),
// and nil for a value read from a tree or a missing one.
func (v Val) Decoded() any {
	if v.t != nil {
		return nil
	}
	return v.v
}

// Val returns node i of t as a Val (missing when i < 0).
func (t *Tree) Val(i int) Val { return Val{t: t, i: i} }
