//go:build unix

package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileManyBlocks: lines of thousands of tool blocks, each one a
// finding (an id used by every block of its entry, results that all
// failed, calls nothing answers), are reported whole in every format: each
// line is read again, decoded and masked about once, not once a finding
// (a 9 MB file of 100,000 such blocks took over 16 minutes before; the
// counts of reads are tested in internal/model, report and rules).
func TestHostileManyBlocks(t *testing.T) {
	isolate(t)
	const n = 3000
	var uses, results, loose []string
	for i := range n {
		uses = append(uses, fmt.Sprintf(`{"type":"tool_use","id":"toolu_dup","name":"Bash","input":{"n":%d}}`, i))
		results = append(results, `{"type":"tool_result","tool_use_id":"toolu_dup","content":"failed","is_error":true}`)
		loose = append(loose, fmt.Sprintf(`{"type":"tool_use","id":"toolu_%06d","name":"mcp__s__t%d","input":{}}`, i, i))
	}
	assistant := func(uuid, parent, msg string, blocks []string) string {
		return `{"parentUuid":` + parent + `,"isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"` +
			hostileSession + `","version":"2.1.39","type":"assistant","message":{"id":"` + msg + `","type":"message",` +
			`"role":"assistant","model":"m","content":[` + strings.Join(blocks, ",") + `],"stop_reason":"tool_use",` +
			`"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}},"uuid":"` + uuid + `","timestamp":"2026-01-05T10:00:00.000Z"}`
	}
	lines := []string{
		assistant(nthUUID(1), "null", "msg_1", uses),
		userLine(nthUUID(2), nthUUID(1), "["+strings.Join(results, ",")+"]"),
		assistant(nthUUID(3), `"`+nthUUID(2)+`"`, "msg_3", loose),
	}
	dir := t.TempDir()
	p := writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"))
	out, _, _ := runJSON(t, p)
	got := rulesOf(out)
	if got["duplicate-tool-use-id"] != n-1 || got["unmatched-tool-use"] != n {
		t.Errorf("findings by rule: %v; want %d duplicate-tool-use-id and %d unmatched-tool-use", got, n-1, n)
	}
	warned := 0
	for _, f := range out.Findings {
		if f.Rule == "duplicate-tool-use-id" && f.Severity == "warning" && strings.Contains(f.Message, "every result for this id is an error") {
			warned++
		}
	}
	if warned != n-1 {
		t.Errorf("%d duplicate blocks said every result failed, want %d", warned, n-1)
	}
	for _, format := range []string{"text", "sarif", "github"} {
		stdout, stderr, code := run(t, "", "--format", format, p)
		if code > 1 || !strings.Contains(stdout, "toolu_000042") {
			t.Errorf("--format %s: exit %d, %d bytes out: %.300s", format, code, len(stdout), stderr)
		}
	}
}

// TestHostileBatchOffChain: a batch of thousands of calls whose results are
// on a side branch: the resume model puts each result back after its call
// in one pass (it decoded the results' line again for each call).
func TestHostileBatchOffChain(t *testing.T) {
	isolate(t)
	const n = 2000
	var uses, results []string
	for i := range n {
		uses = append(uses, fmt.Sprintf(`{"type":"tool_use","id":"toolu_%05d","name":"Bash","input":{}}`, i))
		results = append(results, fmt.Sprintf(`{"type":"tool_result","tool_use_id":"toolu_%05d","content":"ok"}`, i))
	}
	assistant := `{"parentUuid":"` + nthUUID(1) + `","isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"` +
		hostileSession + `","version":"2.1.39","type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant",` +
		`"model":"m","content":[` + strings.Join(uses, ",") + `],"stop_reason":"tool_use","stop_sequence":null,` +
		`"usage":{"input_tokens":1,"output_tokens":1}},"uuid":"` + nthUUID(2) + `","timestamp":"2026-01-05T10:00:00.000Z"}`
	lines := []string{
		userLine(nthUUID(1), "", `"hi"`),
		assistant,
		userLine(nthUUID(3), nthUUID(1), "["+strings.Join(results, ",")+"]"),
		userLine(nthUUID(4), nthUUID(2), `"go on"`),
	}
	dir := t.TempDir()
	p := writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"))
	stdout, stderr, code := run(t, "", "resume", "--format", "json", p)
	if code > 1 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if got := strings.Count(stdout, `"kind": "result-reattached"`); got != n {
		t.Errorf("resume put back %d results, want %d", got, n)
	}
	if _, _, code := runJSON(t, p); code > 1 {
		t.Errorf("lint: exit %d", code)
	}
}

// TestHostileEveryParentMissing: a file whose every parentUuid names no
// entry, one second apart: each line is a bridge of the walk and a finding
// (each bridge read every kept message, each finding every bridge).
func TestHostileEveryParentMissing(t *testing.T) {
	isolate(t)
	const n = 3000
	var b strings.Builder
	for i := range n {
		line := userLine(nthUUID(i+1), fmt.Sprintf("00000007-0000-4000-8000-%012d", i), `"m"`)
		line = strings.Replace(line, "2026-01-05T10:00:00.000Z", fmt.Sprintf("2026-01-05T%02d:%02d:%02d.000Z", 10+i/3600, i/60%60, i%60), 1)
		b.WriteString(line + "\n")
	}
	dir := t.TempDir()
	p := writeFile(t, filepath.Join(dir, "projects", "-home-dev-app", hostileSession+".jsonl"), []byte(b.String()))
	out, _, _ := runJSON(t, filepath.Join(dir, "projects"))
	if got := rulesOf(out)["orphan-parent"]; got != n {
		t.Errorf("%d orphan-parent findings, want %d: %v", got, n, rulesOf(out))
	}
	bridged := 0
	for _, f := range out.Findings {
		if strings.Contains(f.Message, "within the 5 s the reader bridges") {
			bridged++
		}
	}
	if bridged != n-1 {
		t.Errorf("%d gaps bridged, want %d (all but the first line's)", bridged, n-1)
	}
	if stdout, stderr, code := run(t, "", "resume", "--format", "json", p); code > 1 || !strings.Contains(stdout, "gap-bridged") {
		t.Errorf("resume: exit %d: %.300s", code, stderr)
	}
}
