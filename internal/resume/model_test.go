package resume

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/chain"
)

// line writes one transcript line: "uuid<parent type sec [use=ID] [res=ID] [m=MSGID] [text=T] [sc] [nocontent]".
func line(spec string) string {
	f := strings.Fields(spec)
	ids := strings.SplitN(f[0], "<", 2)
	o := map[string]any{"uuid": ids[0], "type": f[1], "isSidechain": false, "sessionId": "s1", "version": "2.1.330"}
	if len(ids) == 2 && ids[1] != "" {
		o["parentUuid"] = ids[1]
	} else {
		o["parentUuid"] = nil
	}
	var sec int
	if _, err := fmt.Sscan(f[2], &sec); err != nil {
		panic(err)
	}
	o["timestamp"] = fmt.Sprintf("2026-11-20T10:%02d:%02d.000Z", sec/60, sec%60)
	var content []any
	bad := false
	msg := map[string]any{"role": f[1]}
	for _, kv := range f[3:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "use":
			content = append(content, map[string]any{"type": "tool_use", "id": v, "name": "Bash", "input": map[string]any{}})
		case "res":
			content = append(content, map[string]any{"type": "tool_result", "tool_use_id": v, "content": "ok"})
		case "text":
			content = append(content, map[string]any{"type": "text", "text": v})
		case "m":
			msg["id"] = v
		case "sc":
			o["isSidechain"] = true
		case "bad":
			bad = true
		case "lp":
			return fmt.Sprintf(`{"type":"last-prompt","leafUuid":%q,"sessionId":"s1"}`, v)
		}
	}
	if f[1] == "user" || f[1] == "assistant" {
		if content == nil {
			content = []any{map[string]any{"type": "text", "text": "hi"}}
		}
		msg["content"] = content
		o["message"] = msg
	}
	if bad {
		o["message"] = map[string]any{"role": "user", "content": 7}
	}
	b, _ := json.Marshal(o)
	return string(b)
}

// shape is the messages in short: "user[text] assistant[use:A,use:B] user[res:A,res:B]".
func shape(r *Result) string {
	if r.Failed != "" {
		return "FAILED"
	}
	var out []string
	for _, m := range r.Messages {
		var bs []string
		for _, b := range m.Content {
			switch b.Type() {
			case "tool_use":
				bs = append(bs, "use:"+b.str("id"))
			case "tool_result":
				s := "res:" + b.str("tool_use_id")
				if e, _ := b["is_error"].(bool); e {
					s += "!"
				}
				bs = append(bs, s)
			case "text":
				t := b.str("text")
				switch t {
				case TextNoResponse:
					t = "NoResponse"
				case TextContinue:
					t = "Continue"
				case TextOrphaned:
					t = "Orphaned"
				case TextInterrupted:
					t = "Interrupted"
				default:
					t = "text"
				}
				bs = append(bs, t)
			}
		}
		if m.StringContent {
			bs = []string{"NoContent"}
		}
		out = append(out, m.Role+"["+strings.Join(bs, ",")+"]")
	}
	return strings.Join(out, " ")
}

func run(t *testing.T, v string, specs ...string) *Result {
	t.Helper()
	var lines []string
	for _, s := range specs {
		lines = append(lines, line(s))
	}
	ld, err := Load(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	ver, _ := ParseVersion(v)
	p := ProfileOf(ver)
	// Finish on a walk (what lint shares between its rules) is Run, and
	// leaves the walk as it was.
	g := chain.Build(ld.Records)
	src := ld.Source
	src.Graph = g
	w := Walk(src, p)
	before := *w
	before.LeftOut, before.Changed = slices.Clone(w.LeftOut), slices.Clone(w.Changed)
	want, got := Run(src, p), Finish(w, src, p)
	if !reflect.DeepEqual(*want, *got) {
		t.Errorf("Finish(Walk) differs from Run:\n%+v\n%+v", *got, *want)
	}
	if !reflect.DeepEqual(*w, before) || len(w.sent) != 0 {
		t.Errorf("Finish changed the walk")
	}
	// What lint shares between readers: a walk reads only the profile's
	// WalkBehaviour (and not Bridge when it took none); a resume only its
	// Behaviour.
	if b := Walk(src, p.WalkBehaviour()).For(p.Version); !reflect.DeepEqual(*b, *w) {
		t.Errorf("Walk of the walk behaviours differs:\n%+v\n%+v", *b, *w)
	}
	if w.Conv == nil || len(w.Conv.Bridges) == 0 {
		q := p.WalkBehaviour()
		q.Bridge = !q.Bridge
		if b := Walk(src, q).For(p.Version); !reflect.DeepEqual(*b, *w) {
			t.Errorf("a walk without bridges differs with Bridge %v:\n%+v\n%+v", q.Bridge, *b, *w)
		}
	}
	if b := Run(src, p.Behaviour()).For(p.Version); !reflect.DeepEqual(*b, *want) {
		t.Errorf("Run of the behaviours differs:\n%+v\n%+v", *b, *want)
	}
	return RunLoaded(ld, p)
}

// The parallel call session both versions were measured on: USE1, USE2
// (parent USE1), RES1 (parent USE1), RES2 (parent USE2).
var parallel = []string{
	"u< user 0",
	"a1<u assistant 1 m=M1 use=A",
	"a2<a1 assistant 1 m=M1 use=B",
	"r1<a1 user 2 res=A",
	"r2<a2 user 2 res=B",
	"a3<r2 assistant 3 m=M2 use=C",
	"r3<a3 user 4 res=C",
	"a4<r3 assistant 5 m=M3 text=done",
}

func TestMeasuredShapes(t *testing.T) {
	drop := func(uuid string) []string {
		var out []string
		for _, s := range parallel {
			if !strings.HasPrefix(s, uuid+"<") {
				out = append(out, s)
			}
		}
		return out
	}
	healthy := "user[text] assistant[use:A,use:B] user[res:A,res:B] assistant[use:C] user[res:C] assistant[text]"
	cases := []struct {
		name, v string
		specs   []string
		want    string
	}{
		{"healthy 2.1.330", "2.1.330", parallel, healthy},
		{"healthy 2.1.110", "2.1.110", parallel, healthy},
		{"batch order 2.1.284", "2.1.330", []string{"u< user 0", "a1<u assistant 1 m=M1 use=A", "r1<a1 user 2 res=A",
			"a2<r1 assistant 2 m=M1 use=B", "r2<a2 user 3 res=B", "a4<r2 assistant 5 m=M3 text=done"},
			"user[text] assistant[use:A,use:B] user[res:A,res:B] assistant[text]"},
		{"result deleted: its call dropped", "2.1.330", drop("r1"),
			"user[text] assistant[use:B] user[res:B] assistant[use:C] user[res:C] assistant[text]"},
		{"trailing call 2.1.330: synthetic error result", "2.1.330", parallel[:6],
			"user[text] assistant[use:A,use:B] user[res:A,res:B] assistant[use:C] user[res:C!] assistant[NoResponse]"},
		{"trailing call 2.1.110: dropped, Continue", "2.1.110", parallel[:6],
			"user[text] assistant[use:A,use:B] user[res:A,res:B,Continue] assistant[NoResponse]"},
		{"torn last assistant 2.1.330", "2.1.330", parallel[:7],
			"user[text] assistant[use:A,use:B] user[res:A,res:B] assistant[use:C] user[res:C] assistant[NoResponse]"},
		{"prompt only", "2.1.110", parallel[:1], "user[text] assistant[NoResponse]"},
		{"call deleted, result bridged then dropped", "2.1.330", drop("a3"),
			"user[text] assistant[use:A,use:B] user[res:A,res:B] assistant[text]"},
		{"duplicate tool id", "2.1.330", []string{"u< user 0", "a1<u assistant 1 m=M1 use=A", "r1<a1 user 2 res=A",
			"a2<r1 assistant 3 m=M2 use=A", "r2<a2 user 4 res=A", "a3<r2 assistant 5 m=M3 text=done"},
			"user[text] assistant[use:A] user[res:A] assistant[Interrupted] user[NoContent] assistant[text]"},
		{"sidechain leaf named by last-prompt 2.1.330", "2.1.330", append(append([]string{}, parallel[:7]...),
			"a4<r3 assistant 5 m=M3 text=done sc", "x< last-prompt 0 lp=a4"), "FAILED"},
		{"sidechain leaf 2.1.110: an unanswered-looking parallel result is still a leaf", "2.1.110", append(append([]string{}, parallel[:7]...),
			"a4<r3 assistant 5 m=M3 text=done sc", "x< last-prompt 0 lp=a4"),
			"user[text] assistant[use:A,use:B] user[res:A,res:B,Continue] assistant[NoResponse]"},
		{"sidechain leaf 2.1.110, sequential calls: no leaf left", "2.1.110", []string{"u< user 0", "a1<u assistant 1 m=M1 use=A",
			"r1<a1 user 2 res=A", "a2<r1 assistant 3 m=M2 text=done sc"}, "FAILED"},
		{"sidechain entry mid-chain: no effect", "2.1.110", []string{"u< user 0", "a1<u assistant 1 m=M1 text=hi sc", "u2<a1 user 2", "a2<u2 assistant 3 m=M2 text=done"},
			"user[text] assistant[text] user[text] assistant[text]"},
		{"content a number 2.1.110: crash", "2.1.110", []string{"u< user 0 bad", "a1<u assistant 1 m=M1 text=hi"}, "FAILED"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := shape(run(t, tc.v, tc.specs...)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestBridgeByVersionAndTime(t *testing.T) {
	// The call a3 is gone; r3 was written 1 s after r2 (bridged by 2.1.94+)
	// or a minute after (cut: the orphan result at the head).
	near := []string{"u< user 0", "a1<u assistant 1 m=M1 use=A", "r1<a1 user 2 res=A", "r3<gone user 3 res=C", "a4<r3 assistant 4 m=M3 text=done"}
	far := []string{"u< user 0", "a1<u assistant 1 m=M1 use=A", "r1<a1 user 2 res=A", "r3<gone user 62 res=C", "a4<r3 assistant 63 m=M3 text=done"}
	if got := shape(run(t, "2.1.330", near...)); got != "user[text] assistant[use:A] user[res:A] assistant[text]" {
		t.Errorf("near, 2.1.330: %s", got)
	}
	if got := shape(run(t, "2.1.330", far...)); got != "user[Orphaned] assistant[text]" {
		t.Errorf("far, 2.1.330: %s", got)
	}
	if got := shape(run(t, "2.1.110", far...)); got != "assistant[text]" {
		t.Errorf("far, 2.1.110: %s", got)
	}
	if got := shape(run(t, "2.1.90", near...)); got != "assistant[text]" {
		t.Errorf("near, 2.1.90 (no bridge): %s", got)
	}
	r := run(t, "2.1.330", far...)
	cut := false
	for _, e := range r.LeftOut {
		if e.Kind == KindHistoryCut && e.Count == 3 && strings.Contains(e.Reason, "60 s earlier") {
			cut = true
		}
	}
	if !cut {
		t.Errorf("want a history-cut of 3 entries naming the gap, got %+v", r.LeftOut)
	}
}

func TestSkippedLinesAndLostContent(t *testing.T) {
	in := line("u< user 0") + "\n" + "\x00\x00\x00\x00\n" + line("a<u assistant 1 m=M1 text=hi") + "\n" +
		`{"parentUuid":"a","uuid":"v","type":"user","timestamp":"2026-11-20T10:00:02.000Z","message":{"role":"user","content":7}}` + "\n" +
		line("b<v assistant 3 m=M2 text=ok") + "\n" + `{"parentUuid":"b","type":"assis`
	ld, err := Load(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	r := RunLoaded(ld, ProfileOf(Newest))
	if got := shape(r); got != "user[text] assistant[text] assistant[text]" {
		t.Errorf("got %s", got)
	}
	var kinds []string
	for _, e := range r.LeftOut {
		kinds = append(kinds, fmt.Sprint(e.Kind, "@", e.Line))
	}
	if got := strings.Join(kinds, " "); got != "skipped-line@2 skipped-line@6 content-lost@4" {
		t.Errorf("left out: %s", got)
	}
}

func TestReaders(t *testing.T) {
	v := func(s string) Version { x, _ := ParseVersion(s); return x }
	if got := fmt.Sprint(Readers(v("2.1.17"), Version{})); got != "[2.1.17 2.1.94 2.1.330 2.1.332]" {
		t.Errorf("readers of 2.1.17: %s", got)
	}
	if got := fmt.Sprint(Readers(v("2.1.330"), Version{})); got != "[2.1.330 2.1.332]" {
		t.Errorf("readers of 2.1.330: %s", got)
	}
	if got := fmt.Sprint(Readers(v("2.1.17"), v("2.1.110"))); got != "[2.1.110]" {
		t.Errorf("override: %s", got)
	}
}
