package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/jsontree"
)

// agreeRec fails t when fastRec, where it answers, disagrees with the
// encoding/json decoding of line b.
func agreeRec(t *testing.T, tr *jsontree.Tree, b []byte) (fast bool) {
	t.Helper()
	s := bytes.TrimSpace(b)
	if len(s) == 0 || s[0] != '{' {
		return false
	}
	got, ok := fastRec(tr, s)
	if !ok {
		return false
	}
	if want := slowRec(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("line %.200q:\nfastRec %+v\nslowRec %+v", b, got, want)
	}
	return true
}

var fastRecCases = []string{
	`{"type":"user","uuid":"a","parentUuid":null,"isSidechain":false}`,
	`{"type":"user","uuid":"a","parentUuid":"b","isSidechain":true,"message":{"id":"m","content":"hi"}}`,
	`{"uuid":"a\u00e9\ud800x","cwd":"/tmp/caf\u00e9","message":{"content":[null,{"type":"tool_use","id":"t1"},{"type":"tool_result","tool_use_id":"t1"}]}}`,
	"{\"uuid\":\"bad\xffutf8\",\"message\":{\"content\":[]}}",
	`{"message":null,"type":null,"other":{"uuid":"x"},"more":[1,2]}`,
	`{"message":{"content":null,"id":null}}`,
	`{"message":{"content":{"a":1}}}`,
	// Each of these takes encoding/json (fastRec declines):
	`{"UUID":"a"}`, `{"uuid":"a","uuid":"b"}`, `{"uuid":5}`, `{"parentUuid":5}`, `{"parentUuid":{}}`,
	`{"isSidechain":"yes"}`, `{"message":"x"}`, `{"message":{"ID":"m"}}`, `{"message":{"content":["x"]}}`,
	`{"message":{"content":[{"type":"tool_use","id":5}]}}`, `{"message":{"content":[{"Id":"t"}]}}`,
	`{"\u0075uid":"a"}`, "{\"u\u212aid\":\"a\"}", `{"uuid":"a"} x`, `{"uuid":"a"`,
}

func TestFastRecAgrees(t *testing.T) {
	var tr jsontree.Tree
	for _, c := range fastRecCases {
		agreeRec(t, &tr, []byte(c))
		if r := parseRec(&tr, []byte(c)); !reflect.DeepEqual(r, slowRec(bytes.TrimSpace([]byte(c)))) {
			t.Fatalf("parseRec(%q) = %+v, want %+v", c, r, slowRec([]byte(c)))
		}
	}
	// Every line of the real corpus and the testdata.
	n, fast := 0, 0
	for _, root := range []string{"../../../../shared/corpus/real", "../../../testdata"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			for _, l := range bytes.Split(data, []byte{'\n'}) {
				n++
				if agreeRec(t, &tr, l) {
					fast++
				}
			}
			return nil
		})
	}
	t.Logf("%d lines, %d through fastRec", n, fast)
}

func FuzzFastRec(f *testing.F) {
	for _, c := range fastRecCases {
		f.Add([]byte(c))
	}
	var tr jsontree.Tree
	f.Fuzz(func(t *testing.T, b []byte) { agreeRec(t, &tr, b) })
}

// TestPlanEscapedNULResumes: the escapes planEscape replaces on a line of
// many \u0000 (scanned on from each replacement) are those a scan from the
// start of the line finds each time.
func TestPlanEscapedNULResumes(t *testing.T) {
	content := strings.Repeat(`PK\u0000\\u0000\u0000\u0000x\\\u0000`, 50)
	data := []byte(`{"type":"user","uuid":"u","message":{"role":"user","content":"` + content + `"}}` + "\n")
	p := newParsed(data)
	es, _, _ := p.planEscape(0, "escaped-nul")
	// The plain way: search from the start after each replacement.
	raw := p.raw(0)
	a, _ := jsonpos.Find(raw, "/message", false)
	line := append([]byte(nil), raw[a:]...)
	var want []int64
	for {
		off := jsonpos.EscapedNUL(line)
		if off < 0 {
			break
		}
		copy(line[off:], `\ufffd`)
		want = append(want, int64(a+off))
	}
	if len(want) != 200 || len(es) != len(want) {
		t.Fatalf("%d edits, want %d", len(es), len(want))
	}
	for k, e := range es {
		if e.Offset != want[k] || e.Text != `\ufffd` || e.Length != 6 {
			t.Fatalf("edit %d = %+v, want offset %d", k, e, want[k])
		}
	}
}

// BenchmarkIndex decodes and indexes every entry of a real damaged
// transcript, as planning a uuid or tool_use lookup does (fix, and the
// fixable count under a text report).
func BenchmarkIndex(b *testing.B) {
	data, err := os.ReadFile("../../../testdata/broken/projects/-Users-pretor-Documents-PAI---TPOS/eca51c57-7b92-423f-8ad6-52f996c9a8e1.jsonl")
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		newParsed(data).index()
	}
}

// TestPlanSurrogateOutsideMessage: a lone surrogate escape outside the
// message (the one the finding names, before it on the line) is not
// planned as fixed by replacing those of the message, which left it there
// and failed the plan's own verification (exit 4 even without --write).
func TestPlanSurrogateOutsideMessage(t *testing.T) {
	data := []byte(`{"type":"user","gitBranch":"main\ud800","uuid":"u","message":{"role":"user","content":"hi\ud800"}}` + "\n")
	es, class, why := newParsed(data).planEscape(0, "lone-surrogate")
	if es != nil || class != "" || !strings.Contains(why, "outside its message") {
		t.Fatalf("planEscape = %v, %q, %q; want no edit and a manual reason", es, class, why)
	}
}

// TestPlanSurrogatesOnePass: every lone surrogate escape of a message is
// replaced in one plan, each found by a scan that goes on from the last,
// as a scan from the start after each replacement finds them.
func TestPlanSurrogatesOnePass(t *testing.T) {
	content := strings.Repeat(`a\ud800\\ud800\udc00x\ud83d\ude00\udfff"\"\u0041`, 400)
	content = strings.ReplaceAll(content, `"\"`, `\"`)
	data := []byte(`{"type":"user","uuid":"u","message":{"role":"user","content":"` + content + `"}}` + "\n")
	p := newParsed(data)
	es, _, _ := p.planEscape(0, "lone-surrogate")
	raw := p.raw(0)
	a, _ := jsonpos.Find(raw, "/message", false)
	line := append([]byte(nil), raw...)
	var want []int64
	for {
		off := jsonpos.LoneSurrogate(line[a:])
		if off < 0 {
			break
		}
		copy(line[a+off:], `\ufffd`)
		want = append(want, int64(a+off))
	}
	if len(want) != 1200 || len(es) != len(want) {
		t.Fatalf("%d edits, want %d", len(es), len(want))
	}
	for k, e := range es {
		if e.Offset != want[k] || e.Text != `\ufffd` || e.Length != 6 {
			t.Fatalf("edit %d = %+v, want offset %d", k, e, want[k])
		}
	}
}
