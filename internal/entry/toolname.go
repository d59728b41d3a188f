package entry

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// toolNames is the process's table of tool_use names, which a Tool holds
// by index: a store names tens of tools (built in, MCP, a
// gateway's), each once here however many blocks call it. Index 0 is "";
// index lostName stands for a name the table does not keep (see
// maxToolName). Readers load the list without a lock: an index reaches
// them in a Tool made after its name was added, so the list they load
// holds it.
var toolNames struct {
	mu    sync.Mutex
	index map[string]uint32
	list  atomic.Pointer[[]string]
	bytes int // the names' length, summed
}

// The table's bounds: it outlives the files whose lines named the tools,
// so what a file can leave in it is capped. A name longer than
// maxToolName, or new once the table holds maxToolNames names or
// maxToolNameBytes bytes, is not kept: its blocks get lostName, whose Name
// is "" (Tool.NameKept tells; the line still has it). No store comes near:
// the corpus's longest tool name (an MCP tool's) has 37 bytes, and its
// 114 transcripts call 48 distinct tools.
const (
	lostName         = 1
	maxToolName      = 256
	maxToolNames     = 1 << 16
	maxToolNameBytes = 4 << 20
)

func init() {
	toolNames.index = map[string]uint32{"": 0}
	toolNames.list.Store(&[]string{"", ""})
}

// toolName is the name at index i of the table.
func toolName(i uint32) string {
	if l := *toolNames.list.Load(); int(i) < len(l) {
		return l[i]
	}
	return ""
}

// toolNameIndex is name's index in the table, which it joins if new and
// within the table's bounds; else lostName.
func toolNameIndex(name string) uint32 {
	if len(name) > maxToolName {
		return lostName
	}
	toolNames.mu.Lock()
	defer toolNames.mu.Unlock()
	if i, ok := toolNames.index[name]; ok {
		return i
	}
	l := *toolNames.list.Load()
	if len(l) >= maxToolNames || toolNames.bytes+len(name) > maxToolNameBytes {
		return lostName
	}
	i := uint32(len(l))
	name = strings.Clone(name) // never keep a caller's larger string alive
	toolNames.index[name] = i
	toolNames.bytes += len(name)
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
	k := toolNameIndex(string(b))
	if k != lostName {
		if len(in.names) >= maxInterned {
			clear(in.names)
		}
		in.names[toolName(k)] = k // the table's string: no second copy
	}
	return k
}

// boolBit is bit when b holds, else 0.
func boolBit(b bool, bit uint32) uint32 {
	if b {
		return bit
	}
	return 0
}
