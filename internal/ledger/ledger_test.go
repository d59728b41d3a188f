package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
)

func val(t *testing.T, s string) jsontree.Val {
	t.Helper()
	var tr jsontree.Tree
	if err := tr.Parse([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return jsontree.TreeVal(&tr)
}

func TestCanon(t *testing.T) {
	for in, want := range map[string]string{
		`{"b":1,"a":[true,null,"x"]}`:                   `{"a":[true,null,"x"],"b":1}`,
		`{"text":"hi","cache_control":{"type":"e"}}`:    `{"text":"hi"}`,
		`[1.0, 1e21, 1e-7, 0.5, -0, 100]`:               `[1,1e+21,1e-7,0.5,0,100]`,
		`"tab\t nl\n quote\" back\\ ctl\u0001 é <&>"`:   `"tab\t nl\n quote\" back\\ ctl\u0001 é <&>"`,
		`{"a":1,"a":2}`:                                 `{"a":2}`,
		`{"content":[{"type":"text","text":"\u2028"}]}`: "{\"content\":[{\"text\":\"\u2028\",\"type\":\"text\"}]}",
	} {
		if got := string(AppendCanon(nil, val(t, in))); got != want {
			t.Errorf("AppendCanon(%s) = %s, want %s", in, got, want)
		}
	}
	// A message's string content hashes as one text block.
	a := AppendMessageCanon(nil, val(t, `{"role":"user","content":"hi"}`))
	b := AppendCanon(nil, val(t, `{"role":"user","content":[{"type":"text","text":"hi"}]}`))
	if string(a) != string(b) {
		t.Errorf("string content: %s vs %s", a, b)
	}
}

// TestRuns: consecutive user entries make one message, assistant entries
// one per message id, and every prefix of a run is a known hash; a blob is
// known under its name and its content's hash is computed.
func TestRuns(t *testing.T) {
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"go"}}`,
		`{"type":"attachment","attachment":{"type":"x"}}`,
		`{"type":"assistant","uuid":"a1","requestRef":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"t"}]}}`,
		`{"type":"assistant","uuid":"a2","requestRef":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"u","name":"Bash","input":{}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"u","content":"ok"}]}}`,
		`{"type":"api-request-blob","hash":"h1","message":{"role":"user","content":"x"}}`,
		`{"type":"api-request","id":"r2","base":"r1","keep":2,"tail":["a","b"],"shapeHash":"s"}`,
	}
	f, err := Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), true)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"content":[{"text":"go","type":"text"}],"role":"user"}`,
		`{"content":[{"text":"t","type":"text"}],"role":"assistant"}`,
		`{"content":[{"text":"t","type":"text"},{"id":"u","input":{},"name":"Bash","type":"tool_use"}],"role":"assistant"}`,
		`{"content":[{"content":"ok","tool_use_id":"u","type":"tool_result"}],"role":"user"}`,
	}
	contents := map[string]bool{}
	for h := range f.Known {
		c, ok := f.Message(h)
		if !ok {
			t.Errorf("known %s has no content", h)
		}
		if h != "h1" {
			contents[string(c)] = true
		}
	}
	for _, w := range want {
		if !contents[w] {
			t.Errorf("missing run %s; have %v", w, contents)
		}
	}
	if len(f.Refs) != 2 || f.Refs[0].Ref != "r1" || f.Refs[1].Line != 4 {
		t.Errorf("refs %+v", f.Refs)
	}
	if len(f.Blobs) != 1 || f.Blobs[0].Actual == "h1" || f.Blobs[0].Actual == "" {
		t.Errorf("blobs %+v", f.Blobs)
	}
	if len(f.Requests) != 1 || f.Requests[0].Keep != 2 || f.Requests[0].Base != "r1" || len(f.Requests[0].Tail) != 2 {
		t.Errorf("requests %+v", f.Requests)
	}
}

func TestBookErrors(t *testing.T) {
	f, _ := Read(strings.NewReader(`{"type":"api-request","id":"r1","base":"r1","keep":1,"tail":[],"shapeHash":"s"}`+"\n"), true)
	b := NewBook(f)
	if _, err := b.Request("r1"); err == nil || !strings.Contains(err.Error(), "its own base") {
		t.Errorf("self base: %v", err)
	}
	if _, err := b.Request("nope"); err == nil {
		t.Error("unknown request: no error")
	}
}

// TestLongRun: a run of many consecutive user entries, each prefix named
// by a request's tail, rebuilds with the hash and content a plain
// concatenation gives (the run is hashed once, not once per prefix: the
// old way took 10 s and 4.5 GB here).
func TestLongRun(t *testing.T) {
	const n = 10000
	var in, blocks strings.Builder
	want := map[int]string{}
	hashOf := map[int]string{}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, `{"type":"user","message":{"role":"user","content":"message %d \"quoted\""}}`+"\n", i)
		if i > 1 {
			blocks.WriteByte(',')
		}
		fmt.Fprintf(&blocks, `{"text":"message %d \"quoted\"","type":"text"}`, i)
		if i == 1 || i == n/2 || i == n {
			msg := `{"content":[` + blocks.String() + `],"role":"user"}`
			sum := sha256.Sum256([]byte(msg))
			want[i], hashOf[i] = msg, hex.EncodeToString(sum[:])
		}
	}
	in.WriteString(`{"type":"api-request-shape","shapeHash":"s","shape":{"system":[]}}` + "\n")
	fmt.Fprintf(&in, `{"type":"api-request","id":"r1","keep":0,"tail":[%q,%q,%q],"shapeHash":"s"}`+"\n", hashOf[1], hashOf[n/2], hashOf[n])
	f, err := Read(strings.NewReader(in.String()), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Known) != n+1 {
		t.Errorf("%d known hashes, want %d", len(f.Known), n+1)
	}
	msgs, err := NewBook(f).Messages("r1")
	if err != nil {
		t.Fatal(err)
	}
	for k, i := range []int{1, n / 2, n} {
		if string(msgs[k]) != want[i] {
			t.Errorf("message %d of the tail (prefix %d): %.80s...", k, i, msgs[k])
		}
	}
	plain, err := Read(strings.NewReader(in.String()), false)
	if err != nil {
		t.Fatal(err)
	}
	for h := range f.Known {
		if !plain.Known[h] {
			t.Errorf("hash %s known with content only", h)
		}
	}
}
