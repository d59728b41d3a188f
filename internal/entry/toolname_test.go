package entry

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestToolNames: a tool block gives back the name it was made with, from
// any goroutine, and equal names share one index.
func TestToolNames(t *testing.T) {
	var wg sync.WaitGroup
	tools := make([][]Tool, 4)
	for g := range tools {
		wg.Go(func() {
			for i := range 300 {
				tools[g] = append(tools[g], ToolUse(fmt.Sprint("t", i), fmt.Sprint("mcp__s__tool", i%50), i, i%7 == 0))
			}
		})
	}
	wg.Wait()
	for g := range tools {
		for i, u := range tools[g] {
			if u.Name() != fmt.Sprint("mcp__s__tool", i%50) || u.Server() != (i%7 == 0) || u.Result() || int(u.Block) != i {
				t.Fatalf("tool %d of goroutine %d: %q server %v result %v block %d", i, g, u.Name(), u.Server(), u.Result(), u.Block)
			}
			if u.meta != tools[0][i].meta {
				t.Fatalf("tool %d: goroutines gave one name two indexes", i)
			}
		}
	}
	if r := ToolResult("x", 3); r.Name() != "" || !r.Result() || r.Server() || r.Block != 3 {
		t.Errorf("ToolResult: %q %v %v %d", r.Name(), r.Result(), r.Server(), r.Block)
	}
	if u := ToolUse("x", "", 0, false); u.Name() != "" || u.meta != 0 {
		t.Errorf("a nameless tool_use: %q meta %d", u.Name(), u.meta)
	}
}

// TestToolNameBounds: a name longer than maxToolName, or new once the
// table is full, is not kept (NameKept is false, Name ""), and the table
// stops growing; names kept before are still given back.
func TestToolNameBounds(t *testing.T) {
	long := strings.Repeat("n", maxToolName+1)
	if u := ToolUse("x", long, 0, false); u.NameKept() || u.Name() != "" {
		t.Errorf("a %d-byte name: kept %v, %q", len(long), u.NameKept(), u.Name())
	}
	if u := ToolUse("x", long[:maxToolName], 0, false); !u.NameKept() || u.Name() != long[:maxToolName] {
		t.Errorf("a %d-byte name: kept %v", maxToolName, u.NameKept())
	}
	// A table of its own, filled, then the process's back.
	toolNames.mu.Lock()
	index, list, bytes := toolNames.index, toolNames.list.Load(), toolNames.bytes
	toolNames.index, toolNames.bytes = map[string]uint32{"": 0}, 0
	toolNames.list.Store(&[]string{"", ""})
	toolNames.mu.Unlock()
	defer func() {
		toolNames.mu.Lock()
		toolNames.index, toolNames.bytes = index, bytes
		toolNames.list.Store(list)
		toolNames.mu.Unlock()
	}()
	first := ToolUse("x", "Bash", 0, false)
	for i := 0; ; i++ {
		u := ToolUse("x", fmt.Sprintf("%0200d", i), 0, false)
		if !u.NameKept() {
			if n := len(*toolNames.list.Load()); n >= maxToolNames || toolNames.bytes+200 <= maxToolNameBytes {
				t.Fatalf("name %d not kept with %d names, %d bytes", i, n, toolNames.bytes)
			}
			break
		}
	}
	n := len(*toolNames.list.Load())
	if u := ToolUse("x", fmt.Sprintf("%0200d", -1), 0, false); u.NameKept() || len(*toolNames.list.Load()) != n {
		t.Errorf("a new name in a full table: kept %v, %d names, was %d", u.NameKept(), len(*toolNames.list.Load()), n)
	}
	if first.Name() != "Bash" || ToolUse("x", "Bash", 0, false).Name() != "Bash" {
		t.Error("a name kept before the table filled is lost")
	}
}
