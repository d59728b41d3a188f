//go:build unix

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/oracle"
)

// TestBigFileReadFromCompaction: a file over 5 MiB is read from its last
// compaction boundary on (measured on 2.1.110, 2.1.330 and 2.1.332: the
// oracle's hand case compaction-big-file). A parallel batch before the
// boundary that shares its message.id with one after it is then not
// gathered, so lint reports nothing; `ccvet resume` says what it did not
// read. Under 5 MiB the same shape gathers the first batch's calls and
// leaves one result off the conversation (the fixture
// tool-result-off-chain/bad-repeated-message-id).
func TestBigFileReadFromCompaction(t *testing.T) {
	c, ok := oracle.LookupHand("compaction-big-file")
	if !ok {
		t.Fatal("no hand case compaction-big-file")
	}
	h := &oracle.Hand{SID: oracle.HandSessionID, Cwd: "/hand"}
	c.Build(h)
	data := h.Bytes()
	if len(data) <= 5<<20 {
		t.Fatalf("the case is %d bytes, not over 5 MiB", len(data))
	}
	path := filepath.Join(t.TempDir(), oracle.HandSessionID+".jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, _ := runJSON(t, "--no-config", path)
	for _, f := range out.Findings {
		t.Errorf("line %d: %s: %s [%s]", f.Line, f.Severity, f.Message, f.Rule)
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"resume", "--format", "json", path}, strings.NewReader(""), &stdout, &stderr); code != ExitOK {
		t.Fatalf("ccvet resume: exit %d: %s", code, stderr.String())
	}
	var doc struct {
		LeftOut []struct {
			Kind  string `json:"kind"`
			Line  int    `json:"line"`
			Count int    `json:"count"`
		} `json:"left_out"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.LeftOut) != 1 || doc.LeftOut[0].Kind != "before-compaction" || doc.LeftOut[0].Line != 7 || doc.LeftOut[0].Count != 6 {
		t.Errorf("left_out = %+v, want before-compaction on line 7 with count 6", doc.LeftOut)
	}
}
