package rules

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// TestBlockReadsOncePerLine: the calls and results of a line of thousands
// of blocks, asked about one by one, decode it once; a line kept among
// the last lineMemoSize is not decoded again, an older one is.
func TestBlockReadsOncePerLine(t *testing.T) {
	var a, u strings.Builder
	a.WriteString(`{"type":"assistant","message":{"content":[`)
	u.WriteString(`{"type":"user","message":{"content":[`)
	for i := range 3000 {
		if i > 0 {
			a.WriteByte(',')
			u.WriteByte(',')
		}
		fmt.Fprintf(&a, `{"type":"tool_use","id":"t%d","name":"Bash","input":{"n":%d}}`, i, i)
		fmt.Fprintf(&u, `{"type":"tool_result","tool_use_id":"t%d","is_error":%v}`, i, i%2 == 0)
	}
	a.WriteString("]}}\n")
	u.WriteString("]}}\n")
	var data []byte
	var recs []*entry.Record
	for k, l := range []string{a.String(), u.String(), "{}\n", "{}\n", "{}\n", "{}\n"} {
		recs = append(recs, entry.Ref(k+1, int64(len(data))))
		data = append(data, l...)
	}
	f := &model.File{File: &layout.File{Kind: layout.Transcript}, Copy: bytes.NewReader(data), Bytes: int64(len(data))}
	br := newBlockReads(f)
	for i := range 3000 {
		name, input, ok := br.call(recs[0], i)
		if !ok || name != "Bash" || fmt.Sprint(input) != fmt.Sprintf("map[n:%d]", i) {
			t.Fatalf("call %d: %v %v %v", i, name, input, ok)
		}
		if br.isError(recs[1], i) != (i%2 == 0) {
			t.Fatalf("result %d: is_error %v", i, i%2 != 0)
		}
	}
	if br.decoded != 2 {
		t.Errorf("6,000 questions about two lines decoded %d lines", br.decoded)
	}
	for _, r := range recs[2:] {
		br.isError(r, 0)
		br.isError(recs[1], 0) // used each time: kept
	}
	if br.decoded != 6 {
		t.Errorf("decoded %d lines, want 6", br.decoded)
	}
	br.isError(recs[2], 0) // used longest ago: decoded again
	if br.decoded != 7 {
		t.Errorf("decoded %d lines, want 7", br.decoded)
	}
	if _, _, ok := br.call(recs[0], 3000); ok {
		t.Error("a block past the end was found")
	}
}
