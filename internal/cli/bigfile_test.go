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
	data := handBytes(t, "compaction-big-file")
	if len(data) <= 5<<20 {
		t.Fatalf("the case is %d bytes, not over 5 MiB", len(data))
	}
	path := writeHand(t, data)
	out, _, _ := runJSON(t, "--no-config", path)
	for _, f := range out.Findings {
		t.Errorf("line %d: %s: %s [%s]", f.Line, f.Severity, f.Message, f.Rule)
	}
	left := leftOut(t, path)
	if len(left) != 1 || left[0].Kind != "before-compaction" || left[0].Line != 7 || left[0].Count != 6 {
		t.Errorf("left_out = %+v, want before-compaction on line 7 with count 6", left)
	}
}

// handBytes is the file of the oracle's hand-written case id.
func handBytes(t *testing.T, id string) []byte {
	t.Helper()
	c, ok := oracle.LookupHand(id)
	if !ok {
		t.Fatal("no hand case " + id)
	}
	h := &oracle.Hand{SID: oracle.HandSessionID, Cwd: "/hand"}
	c.Build(h)
	return h.Bytes()
}

// writeHand writes data as a hand-written session's file in a temporary
// folder and returns its path.
func writeHand(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), oracle.HandSessionID+".jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A leftOutEvent is one event of `ccvet resume --format json`'s left_out.
type leftOutEvent struct {
	Kind  string `json:"kind"`
	Line  int    `json:"line"`
	Count int    `json:"count"`
}

// leftOut is what `ccvet resume` says the reader leaves out of path.
func leftOut(t *testing.T, path string) []leftOutEvent {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"resume", "--format", "json", path}, strings.NewReader(""), &stdout, &stderr); code != ExitOK {
		t.Fatalf("ccvet resume: exit %d: %s", code, stderr.String())
	}
	var doc struct {
		LeftOut []leftOutEvent `json:"left_out"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.LeftOut
}

// TestBigFileBound: the reader goes by the file's size (measured on
// 2.1.110, 2.1.330 and 2.1.332: the oracle's hand case
// compaction-big-last-line, over 5 MiB by its last line alone). The same
// session at exactly 5 MiB is read whole: the first batch's calls are
// gathered and a result is left off the conversation, as under 5 MiB; one
// byte more and it is read from its compaction boundary on, though every
// line but the last starts in its first few KiB. (Which side the bound's
// own byte falls on is ccvet's reading, "over 5 MiB"; the real readers
// were measured at 5,125,998 and 5,247,071 bytes.)
func TestBigFileBound(t *testing.T) {
	data := handBytes(t, "compaction-big-last-line")
	for _, size := range []int{5 << 20, 5<<20 + 1} {
		// The last reply's padding, cut or grown to make the file size bytes.
		at := bytes.LastIndex(data, []byte("Hand reply two.")) + len("Hand reply two.")
		d := size - len(data)
		if d < 0 && -d > 4096 {
			t.Fatalf("the case is %d bytes, too far over %d", len(data), size)
		}
		b := append(append([]byte{}, data[:at]...), bytes.Repeat([]byte("x"), max(d, 0))...)
		b = append(b, data[at+max(-d, 0):]...)
		if len(b) != size || !json.Valid(bytes.TrimSpace(b[bytes.LastIndexByte(b[:len(b)-1], '\n'):])) {
			t.Fatalf("made %d bytes, want %d, the last line valid JSON", len(b), size)
		}
		path := writeHand(t, b)
		out, _, _ := runJSON(t, "--no-config", path)
		offChain := 0
		for _, f := range out.Findings {
			if f.Rule == "tool-result-off-chain" {
				offChain++
			} else {
				t.Errorf("%d bytes: line %d: %s: %s [%s]", size, f.Line, f.Severity, f.Message, f.Rule)
			}
		}
		left := leftOut(t, path)
		fromBoundary := false
		for _, e := range left {
			fromBoundary = fromBoundary || e.Kind == "before-compaction" && e.Line == 7
		}
		if want := size > 5<<20; fromBoundary != want || (offChain == 0) != want {
			t.Errorf("%d bytes: %d tool-result-off-chain finding(s), left_out %+v; want it read from the boundary: %v", size, offChain, left, want)
		}
	}
}
