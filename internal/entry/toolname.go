package entry

import (
	"sync"
	"sync/atomic"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// toolNames is the run's table of tool_use names, which a Tool holds by
// index: a store names a few hundred tools (built in, MCP, a gateway's),
// each once here however many blocks call it. Index 0 is "". Readers load
// the list without a lock: an index reaches them in a Tool made after its
// name was added, so the list they load holds it.
var toolNames struct {
	mu    sync.Mutex
	index map[string]uint32
	list  atomic.Pointer[[]string]
}

// maxToolNames bounds the table by what Tool.meta can index; a name past
// it reads as "" (no input comes near: each name is a tool_use block of
// its own, a billion of them).
const maxToolNames = 1 << (32 - toolNameShift)

func init() {
	toolNames.index = map[string]uint32{"": 0}
	toolNames.list.Store(&[]string{""})
}

// toolName is the name at index i of the table.
func toolName(i uint32) string {
	if l := *toolNames.list.Load(); int(i) < len(l) {
		return l[i]
	}
	return ""
}

// toolNameIndex is name's index in the table, which it joins if new.
func toolNameIndex(name string) uint32 {
	toolNames.mu.Lock()
	defer toolNames.mu.Unlock()
	if i, ok := toolNames.index[name]; ok {
		return i
	}
	l := *toolNames.list.Load()
	if len(l) >= maxToolNames {
		return 0
	}
	i := uint32(len(l))
	name = string([]byte(name)) // never keep a caller's larger string alive
	toolNames.index[name] = i
	l = append(l, name)
	toolNames.list.Store(&l)
	return i
}

// toolName is the table index of the name at node i of t (0 when it is
// not a string), from the interner's own map when seen before: the
// table's lock is taken once per name a file calls.
func (in *interner) toolName(t *jsontree.Tree, i int) uint32 {
	b, ok := in.strBytes(t, i)
	if !ok || len(b) == 0 {
		return 0
	}
	if k, ok := in.names[string(b)]; ok {
		return k
	}
	if len(in.names) >= maxInterned {
		clear(in.names)
	}
	s := string(b)
	k := toolNameIndex(s)
	in.names[s] = k
	return k
}

// boolBit is bit when b holds, else 0.
func boolBit(b bool, bit uint32) uint32 {
	if b {
		return bit
	}
	return 0
}
