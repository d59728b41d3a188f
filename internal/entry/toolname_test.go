package entry

import (
	"fmt"
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
