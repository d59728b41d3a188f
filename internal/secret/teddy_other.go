//go:build !amd64

package secret

// tedNative is how this processor reads the blocks: tedGo off amd64 (the
// automaton then finds the keywords).
const tedNative = tedGo

// tedHasAVX2 says teddyBlocksAVX2 may be used: never off amd64.
const tedHasAVX2 = false

func teddyBlocks(t *tedTables, text []byte, out []uint64) { panic("unreachable") }

func teddyBlocksAVX2(n *tedNibbles, text []byte, out []uint64) { panic("unreachable") }
