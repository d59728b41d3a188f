//go:build unix

package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHostileManyKeys: one object with a million keys (a 17 MB line) is
// checked in linear time, with and without a repeated key: the run must
// end (go test's timeout is the bound; timings stay out of the assertion)
// and report the line only as oversized.
func TestHostileManyKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("writes two 17 MB lines")
	}
	isolate(t)
	var b strings.Builder
	for i := range 1_000_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
	}
	members := b.String()
	for _, c := range []struct{ name, obj string }{
		{"unique", "{" + members + "}"},
		{"repeated", "{" + members + `,"k5":1}`},
	} {
		dir := t.TempDir()
		line := strings.Replace(userLine(nthUUID(1), "", `"x"`), `,"uuid":`, `,"toolUseResult":`+c.obj+`,"uuid":`, 1)
		writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(line+"\n"))
		out, _, _ := runJSON(t, dir)
		if got := rulesOf(out); got["oversized"] != 1 || len(out.Findings) != 1 {
			t.Errorf("%s: want one oversized finding, got %+v", c.name, out.Findings)
		}
	}
}
