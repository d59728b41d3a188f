package chain

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ccvet/ccvet/internal/entry"
)

// rec is a short way to write a record: "uuid<parent type [k=v ...]".
// Keys: m (message.id), tu (tool_use id), tr (tool_result id), t (seconds
// after 10:00:00), sc (sidechain), a (agentId).
func rec(line int, spec string) *entry.Record {
	f := strings.Fields(spec)
	ids := strings.SplitN(f[0], "<", 2)
	r := entry.Ref(line, 0)
	r.Common = &entry.Common{Type: f[1]}
	r.SetUUID(ids[0])
	if len(ids) == 2 && ids[1] != "" {
		r.SetParentUUID(ids[1])
		r.HasParent = true
	}
	r.SetTimestamp(fmt.Sprintf("2025-10-01T10:00:%02d.000Z", line))
	for _, kv := range f[2:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "m":
			r.SetIDs(v, r.SourceToolAssistantUUID())
		case "tu":
			r.AddTool(entry.ToolUse(v, "Bash", 0, false))
		case "tr":
			r.AddTool(entry.ToolResult(v, 0))
		case "t":
			r.SetTimestamp("2025-10-01T10:00:" + v + ".000Z")
		case "sc":
			r.IsSidechain = true
		case "a":
			r.AgentID = v
		}
	}
	return r
}

func recs(specs ...string) []*entry.Record {
	out := make([]*entry.Record, len(specs))
	for i, s := range specs {
		out[i] = rec(i+1, s)
	}
	return out
}

// uuids lists the uuids of the conversation in order.
func uuids(g *Graph, c *Conversation) string {
	var s []string
	for _, i := range c.Order {
		s = append(s, g.Records[i].UUID())
	}
	return strings.Join(s, " ")
}

func TestRebuild(t *testing.T) {
	cases := []struct {
		name  string
		recs  []*entry.Record
		want  string
		cycle bool
		cut   string
	}{
		{"linear", recs("a< user", "b<a assistant m=1", "c<b user"), "a b c", false, ""},
		{"branch: the latest leaf wins",
			recs("a< user", "b<a assistant m=1", "c<a user", "d<c assistant m=2"), "a c d", false, ""},
		{"progress is bridged",
			recs("a< user", "p<a progress", "q<p progress", "b<q assistant m=1"), "a b", false, ""},
		{"compaction boundary stops the walk",
			recs("a< user", "b<a assistant m=1", "cb< system", "s<cb user"), "cb s", false, ""},
		{"missing parent cuts",
			recs("a< user", "b<x assistant m=1", "c<b user"), "b c", false, "b"},
		{"cycle stops",
			recs("a<c user", "b<a assistant m=1", "c<b user t=59"), "a b c", true, ""},
		{"sidechain lines are not the main leaf",
			recs("a< user", "b<a assistant m=1", "s< user sc", "s2<s assistant sc m=9"), "a b", false, ""},
		{"parallel tool calls of 2.1.x: every result recovered",
			recs("u< user",
				"a1<u assistant m=1 tu=X",
				"a2<a1 assistant m=1 tu=Y",
				"rX<a1 user tr=X",
				"rY<a2 user tr=Y",
				"n<rY assistant m=2"),
			"u a1 a2 rX rY n", false, ""},
		{"off-chain sibling and its result recovered",
			recs("u< user",
				"a1<u assistant m=1 tu=X",
				"a2<u assistant m=1 tu=Y",
				"rX<a1 user tr=X",
				"rY<a2 user tr=Y",
				"n<rX assistant m=2"),
			"u a1 a2 rX rY n", false, ""},
		{"2.1.284 batch order gathered into one call and one answer",
			recs("u< user",
				"a1<u assistant m=1 tu=X",
				"rX<a1 user tr=X",
				"a2<rX assistant m=1 tu=Y",
				"rY<a2 user tr=Y",
				"n<rY assistant m=2"),
			"u a1 a2 rX rY n", false, ""},
		{"duplicate uuid: the last line wins",
			recs("a< user", "b<a assistant m=1", "b<a assistant m=1 t=03", "c<b user"), "a b c", false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := Build(tc.recs)
			c := g.Rebuild(g.MainLeaf())
			if got := uuids(g, c); got != tc.want {
				t.Errorf("order = %q, want %q", got, tc.want)
			}
			if c.Cycle != tc.cycle {
				t.Errorf("cycle = %v, want %v", c.Cycle, tc.cycle)
			}
			cut := ""
			if c.Cut >= 0 {
				cut = g.Records[c.Cut].UUID()
			}
			if cut != tc.cut {
				t.Errorf("cut = %q, want %q", cut, tc.cut)
			}
		})
	}
}

func TestBridge(t *testing.T) {
	// b's parent x is missing; a was written 1 s before b: 2.1.94+ bridge.
	g := Build(recs("a< user t=01", "b<x assistant m=1 t=02", "c<b user t=03"))
	c := g.RebuildWith(g.MainLeaf(), Options{Bridge: true})
	if got := uuids(g, c); got != "a b c" || c.Cut != -1 || len(c.Bridges) != 1 || c.Bridges[0].Gap != 1000 {
		t.Errorf("bridged: order %q cut %d bridges %+v", got, c.Cut, c.Bridges)
	}
	if c := g.Rebuild(g.MainLeaf()); uuids(g, c) != "b c" || c.Cut != 1 {
		t.Errorf("no bridge: order %q cut %d", uuids(g, c), c.Cut)
	}
	// Six seconds: too far for the bridge.
	g = Build(recs("a< user t=01", "b<x assistant m=1 t=07", "c<b user t=08"))
	c = g.RebuildWith(g.MainLeaf(), Options{Bridge: true})
	if got := uuids(g, c); got != "b c" || c.Cut != 1 || c.Bridges[0].Gap != 6000 || c.Bridges[0].Near != 0 {
		t.Errorf("gap 6 s: order %q cut %d bridges %+v", got, c.Cut, c.Bridges)
	}
	// A cycle bridged to the latest earlier unseen entry.
	g = Build(recs("z< user t=00", "a<c user t=01", "b<a assistant m=1 t=02", "c<b user t=03"))
	c = g.RebuildWith(g.MainLeaf(), Options{Bridge: true})
	if got := uuids(g, c); got != "z a b c" || !c.Cycle || c.CycleCut != -1 {
		t.Errorf("cycle bridged: order %q cycle %v cut %d", got, c.Cycle, c.CycleCut)
	}
}

func TestRecoveredAndKept(t *testing.T) {
	g := Build(recs("u< user", "a1<u assistant m=1 tu=X", "a2<a1 assistant m=1 tu=Y",
		"rX<a1 user tr=X", "rY<a2 user tr=Y", "a1<u assistant m=1 tu=X t=02"))
	c := g.Rebuild(g.MainLeaf())
	var rec []string
	for _, i := range c.Order {
		if c.Recovered(i) {
			rec = append(rec, g.Records[i].UUID())
		}
	}
	if !reflect.DeepEqual(rec, []string{"rX"}) {
		t.Errorf("recovered = %v, want [rX]", rec)
	}
	if g.Kept(1) || !g.Kept(5) {
		t.Errorf("the last line of a duplicated uuid must be the one kept")
	}
}

func TestAgentLeaf(t *testing.T) {
	g := Build(recs("r< user sc a=x", "b<r assistant sc a=x m=1", "c<b user sc a=x", "o< user sc a=y t=30"))
	if got := g.AgentLeaf("x"); got != 2 {
		t.Errorf("AgentLeaf(x) = %d, want 2", got)
	}
	if got := g.AgentLeaf("z"); got != -1 {
		t.Errorf("AgentLeaf(z) = %d, want -1", got)
	}
	if got := g.MainLeaf(); got != -1 {
		t.Errorf("MainLeaf of an all-sidechain file = %d, want -1", got)
	}
}

func TestFirstAndLastWith(t *testing.T) {
	g := Build(recs("a< user", "b<a assistant", "a<b user", "c<a progress"))
	for _, c := range []struct {
		uuid        string
		first, last int
	}{{"a", 0, 2}, {"b", 1, 1}, {"c", 3, 3}, {"x", -1, -1}, {"", -1, -1}} {
		if f, l := g.FirstWith(c.uuid), g.LastWith(c.uuid); f != c.first || l != c.last {
			t.Errorf("%q: first %d last %d, want %d %d", c.uuid, f, l, c.first, c.last)
		}
	}
	for i, want := range []bool{false, true, true, true} {
		if g.IsLast(i) != want {
			t.Errorf("IsLast(%d) = %v, want %v", i, !want, want)
		}
	}
	if n := g.Repeats(); n != 1 {
		t.Errorf("Repeats = %d, want 1 (the second a)", n)
	}
	if n := Build(recs("a< user", "b<a assistant", "< summary", "< summary")).Repeats(); n != 0 {
		t.Errorf("Repeats without a repeated uuid = %d, want 0", n)
	}
}

// TestBuildSizeBound: a file over BigFile is loaded from its last
// compaction boundary without preservedSegment on, by the file's size
// (BuildSize), not where its last line starts; Build, the size not known,
// goes by the last record's offset.
func TestBuildSizeBound(t *testing.T) {
	rs := recs("a< user", "b<a assistant", "c system", "d<c user", "e<d assistant")
	rare := *rs[2].Rare // its uuid's string is there
	rare.Subtype = "compact_boundary"
	rs[2].Rare = &rare
	for i, r := range rs {
		r.Offset = int64(i) * 100 // every line starts in the first KiB
	}
	for _, c := range []struct {
		size int64
		from int
	}{{BigFile, 0}, {BigFile + 1, 2}, {0, 0}} {
		if g := BuildSize(rs, c.size); g.From != c.from {
			t.Errorf("BuildSize(size %d): loads from record %d, want %d", c.size, g.From, c.from)
		}
	}
	rs[4].Offset = BigFile + 1
	if g := Build(rs); g.From != 2 {
		t.Errorf("Build, last line at %d: loads from record %d, want 2", rs[4].Offset, g.From)
	}
}

// TestConcurrentUse: what a Graph derives on demand (leaves, timestamps,
// conversations, Memo) is made safely when several goroutines ask at once
// (the file rules of one large file run together; run with -race), each
// Memo value once, and every answer is the one a lone caller gets.
func TestConcurrentUse(t *testing.T) {
	specs := []string{"z< user t=00", "a<c user t=01", "b<a assistant m=1 t=02 tu=X", "c<b user t=03",
		"r< user sc a=x t=04", "s<r assistant sc a=x m=2 t=05", "rX<b user tr=X t=06", "d<x user t=09"}
	type answer struct {
		main, childless, resume, agent int
		convs                          []string
	}
	ask := func(g *Graph) answer {
		a := answer{main: g.MainLeaf(), childless: g.ChildlessLeaf(), resume: g.ResumeLeaf(), agent: g.AgentLeaf("x")}
		for _, leaf := range []int{a.main, a.childless, a.resume, a.agent} {
			for _, o := range []Options{{}, {Bridge: true}, {FileOrder: true}, {Bridge: true, FileOrder: true}} {
				a.convs = append(a.convs, uuids(g, g.RebuildWith(leaf, o)))
			}
		}
		return a
	}
	want := ask(Build(recs(specs...)))
	for range 20 {
		g := Build(recs(specs...))
		var computed atomic.Int32
		got := make([]answer, 4)
		memo := make([]any, 4)
		var wg sync.WaitGroup
		for k := range got {
			wg.Go(func() {
				memo[k] = g.Memo("k", func() any {
					computed.Add(1)
					return g.Memo("inner", func() any { return new(int) })
				})
				got[k] = ask(g)
			})
		}
		wg.Wait()
		for k := range got {
			if !reflect.DeepEqual(got[k], want) {
				t.Fatalf("goroutine %d: %+v, want %+v", k, got[k], want)
			}
			if memo[k] != memo[0] {
				t.Fatalf("goroutine %d got another Memo value", k)
			}
		}
		if n := computed.Load(); n != 1 {
			t.Fatalf("Memo computed %d times, want once", n)
		}
		if v, ok := g.Memoized("k"); !ok || v != memo[0] || !g.Memoizes() {
			t.Fatalf("Memoized(k) = %v, %v", v, ok)
		}
	}
}
