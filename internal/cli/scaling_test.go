//go:build unix

package cli

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
)

// Inputs that made one check compare everything with everything: each is
// sized so that the old way takes tens of seconds and the new one well under
// one, and each test pins the findings, not the time (timings live in the
// benchmarks and in docs/performance.md).

// TestScalingBackupDirs: a transcript of thousands of session ids and
// launch directories whose snapshot names thousands of relative keys. Each
// key was resolved against every directory and each missing backup looked
// for in every session's folder; the folders are now read into one set, and
// the hashing stops after a budget (a key past it is left unchecked, never
// reported).
func TestScalingBackupDirs(t *testing.T) {
	isolate(t)
	const n = 3000
	root := t.TempDir()
	var lines []string
	prev := ""
	for i := range n {
		sid := hostileSession
		if i > 0 {
			sid = fmt.Sprintf("00000000-0000-4000-9000-%012d", i)
		}
		p := "null"
		if prev != "" {
			p = `"` + prev + `"`
		}
		lines = append(lines, `{"parentUuid":`+p+`,"isSidechain":false,"userType":"external","cwd":"/home/dev/app/d`+
			fmt.Sprint(i)+`","sessionId":"`+sid+`","version":"2.1.39","type":"user","message":{"role":"user","content":"hi"},`+
			`"uuid":"`+nthUUID(i+1)+`","timestamp":"2026-01-05T10:00:00.000Z"}`)
		prev = nthUUID(i + 1)
	}
	backups := map[string]any{}
	folder := filepath.Join(root, "file-history", hostileSession)
	for i := range n {
		key := fmt.Sprintf("src/f%d.ts", i)
		name := "0123456789abcdef@v1" // neither hashed right nor present
		if i%2 == 1 {
			sum := sha256.Sum256([]byte("/home/dev/app/d0/" + key))
			name = hex.EncodeToString(sum[:8]) + "@v1"
			writeFile(t, filepath.Join(folder, name), nil)
		}
		backups[key] = map[string]any{"backupFileName": name, "version": 1, "backupTime": "2026-01-05T10:00:00.000Z"}
	}
	snap, err := json.Marshal(map[string]any{"type": "file-history-snapshot", "messageId": prev, "isSnapshotUpdate": false,
		"snapshot": map[string]any{"messageId": prev, "trackedFileBackups": backups, "timestamp": "2026-01-05T10:00:00.000Z"}})
	if err != nil {
		t.Fatal(err)
	}
	lines = append(lines, string(snap))
	writeFile(t, filepath.Join(root, "projects", "-home-dev-app-d0", hostileSession+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"))
	for i := 1; i < 5; i++ { // other sessions' folders are looked in too
		if err := os.MkdirAll(filepath.Join(root, "file-history", fmt.Sprintf("00000000-0000-4000-9000-%012d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out, _, _ := runJSON(t, root)
	got := rulesOf(out)
	// One missing-backup finding per name: the wrong names are all one.
	// Of the n/2 wrong names, those tried once the million hashes are
	// spent are left unchecked (each costs n hashes).
	if got["missing-backup"] != 1 || got["backup-name-mismatch"] == 0 || got["backup-name-mismatch"] >= n/2 {
		t.Errorf("findings by rule: %v; want 1 missing-backup and fewer than %d backup-name-mismatch", got, n/2)
	}
	for _, f := range out.Findings {
		if f.Rule == "backup-name-mismatch" && !strings.Contains(f.Message, "0123456789abcdef") {
			t.Errorf("a backup named as Claude Code names it was reported: %s", f.Message)
		}
	}
}

// TestScalingProjectLookups: a project of thousands of transcripts whose
// entries name parents and tool calls in other transcripts. Each finding
// looked the name up file by file (and each file's tool calls one by one);
// past a few dozen questions the project now indexes which files hold
// each uuid.
func TestScalingProjectLookups(t *testing.T) {
	isolate(t)
	const n, k = 1500, 2 // files, and entries of each naming another file
	root := t.TempDir()
	id := func(f, j int) string { return fmt.Sprintf("%08d-0000-4000-8000-%012d", f, j) }
	for f := range n {
		sid := fmt.Sprintf("%08d-0000-4000-9000-000000000000", f)
		entry := func(uuid, parent, extra, content string) string {
			p := "null"
			if parent != "" {
				p = `"` + parent + `"`
			}
			return `{"parentUuid":` + p + `,"isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"` + sid +
				`","version":"2.1.39","type":"user","message":{"role":"user","content":` + content + `},"uuid":"` + uuid + `"` +
				extra + `,"timestamp":"2026-01-05T10:00:00.000Z"}`
		}
		lines := []string{
			entry(id(f, 0), "", "", `"hi"`),
			`{"parentUuid":"` + id(f, 0) + `","isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"` + sid +
				`","version":"2.1.39","type":"assistant","message":{"id":"msg_` + fmt.Sprint(f) + `","type":"message","role":"assistant",` +
				`"model":"m","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,` +
				`"usage":{"input_tokens":1,"output_tokens":1}},"uuid":"` + id(f, 1) + `","timestamp":"2026-01-05T10:00:00.000Z"}`,
		}
		for j := range k {
			o := (f + 1 + j) % n
			lines = append(lines,
				entry(id(f, 100+j), id(o, 1), "", `"x"`),
				entry(id(f, 200+j), id(f, 100+j), `,"sourceToolAssistantUUID":"`+id(o, 1)+`"`,
					`[{"type":"tool_result","tool_use_id":"toolu_`+fmt.Sprint(f, "_", j)+`","content":"ok"}]`))
		}
		writeFile(t, filepath.Join(root, "projects", "-home-dev-app", sid+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"))
	}
	out, _, _ := runJSON(t, root)
	got := rulesOf(out)
	if got["orphan-parent"] != n*k || got["tool-source-mismatch"] != n*k {
		t.Errorf("findings by rule: %v; want %d orphan-parent and %d tool-source-mismatch", got, n*k, n*k)
	}
	for _, f := range out.Findings {
		switch f.Rule {
		case "orphan-parent":
			// The file holding the parent is named.
			var file, j, o int
			if _, err := fmt.Sscanf(filepath.Base(f.Path), "%08d", &file); err != nil {
				t.Fatal(err)
			}
			j = (f.Line - 3) / 2
			o = (file + 1 + j) % n
			if want := fmt.Sprintf("(it is in %08d-0000-4000-9000-000000000000.jsonl,", o); !strings.Contains(f.Message, want) {
				t.Fatalf("%s:%d: %s; want it to say %s", f.Path, f.Line, f.Message, want)
			}
		case "tool-source-mismatch":
			if !strings.Contains(f.Message, "names an entry of another transcript that holds no tool_use") {
				t.Fatalf("%s:%d: %s", f.Path, f.Line, f.Message)
			}
		}
	}
}

// TestScalingBatchLines: two assistant lines of thousands of calls each and
// a user line answering the second's, whose sourceToolAssistantUUID names
// the first. Every call of the first is unanswered, and each of its
// findings relates the line below: the checks compared every call with
// every result (the unanswered-call test, the resume model's pairing, the
// look around each block, the source test), and the two lines, asked about
// in turn, were read again and scanned from the start for each finding
// (143 s for 20,000 calls).
func TestScalingBatchLines(t *testing.T) {
	isolate(t)
	const n = 4000
	assistant := func(uuid, parent, prefix string) string {
		var uses []string
		for i := range n {
			uses = append(uses, fmt.Sprintf(`{"type":"tool_use","id":"toolu_%s%d","name":"Bash","input":{}}`, prefix, i))
		}
		return `{"parentUuid":"` + parent + `","isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"` +
			hostileSession + `","version":"2.1.39","type":"assistant","message":{"id":"msg_` + prefix + `","type":"message",` +
			`"role":"assistant","model":"m","content":[` + strings.Join(uses, ",") + `],"stop_reason":"tool_use",` +
			`"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}},"uuid":"` + uuid + `","timestamp":"2026-01-05T10:00:00.000Z"}`
	}
	var results []string
	for i := range n {
		results = append(results, fmt.Sprintf(`{"type":"tool_result","tool_use_id":"toolu_b%d","content":"ok"}`, i))
	}
	answer := strings.Replace(userLine(nthUUID(4), nthUUID(3), "["+strings.Join(results, ",")+"]"),
		`"type":"user"`, `"type":"user","sourceToolAssistantUUID":"`+nthUUID(2)+`"`, 1)
	lines := []string{userLine(nthUUID(1), "", `"hi"`), assistant(nthUUID(2), nthUUID(1), "a"), assistant(nthUUID(3), nthUUID(2), "b"), answer}
	p := writeFile(t, filepath.Join(t.TempDir(), hostileSession+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"))
	out, _, _ := runJSON(t, p)
	got := rulesOf(out)
	if got["unmatched-tool-use"] != n || got["tool-source-mismatch"] != 1 || got["unmatched-tool-result"] != 0 || got["tool-result-off-chain"] != 0 {
		t.Errorf("findings by rule: %v; want %d unmatched-tool-use and 1 tool-source-mismatch", got, n)
	}
	for _, f := range out.Findings {
		if f.Rule == "unmatched-tool-use" && (f.Line != 2 || f.Column == 0 || !strings.Contains(f.Message, "line 4")) {
			t.Fatalf("%s:%d:%d: %s; want line 2 and the results' line 4", f.Path, f.Line, f.Column, f.Message)
		}
	}
}

// TestScalingSharedFolder: a project folder shared by a thousand launch
// directories (the lossy encoding maps /a/b, /a-b, /a.b and /a_b to one
// folder). Each session's note listed every other directory: 4,096 of them
// printed 300 MB. The note now names five; the folder's problem names all.
func TestScalingSharedFolder(t *testing.T) {
	isolate(t)
	root := t.TempDir()
	var dirs []string
	var walk func(path string, depth int)
	walk = func(path string, depth int) {
		if depth == 5 {
			dirs = append(dirs, path)
			return
		}
		for _, sep := range []string{"/", "-", ".", "_"} {
			walk(path+sep+string(rune('b'+depth)), depth+1)
		}
	}
	walk("/a", 0)
	// Seven directories: the note names the six others.
	few := t.TempDir()
	for i, dir := range dirs[:7] {
		sid := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		writeFile(t, filepath.Join(few, "projects", "-a-b-c-d-e-f", sid+".jsonl"), []byte(`{"parentUuid":null,"isSidechain":false,`+
			`"userType":"external","cwd":"`+dir+`","sessionId":"`+sid+`","version":"2.1.39","type":"user","message":{"role":"user",`+
			`"content":"hi"},"uuid":"`+fmt.Sprintf("00000000-0000-4000-9000-%012d", i)+`","timestamp":"2026-01-05T10:00:00.000Z"}`+"\n"))
	}
	for _, s := range sessionsJSON(t, few).Sessions {
		for _, note := range s.Picker.Notes {
			if note.Code == "folder-shared-with-other-path" && (strings.Count(note.Detail, `"/a`) != 7 || strings.Contains(note.Detail, "other directories")) {
				t.Errorf("seven directories: %s", note.Detail)
			}
		}
	}
	for i, dir := range dirs {
		sid := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		writeFile(t, filepath.Join(root, "projects", "-a-b-c-d-e-f", sid+".jsonl"), []byte(`{"parentUuid":null,"isSidechain":false,`+
			`"userType":"external","cwd":"`+dir+`","sessionId":"`+sid+`","version":"2.1.39","type":"user","message":{"role":"user",`+
			`"content":"hi"},"uuid":"`+fmt.Sprintf("00000000-0000-4000-9000-%012d", i)+`","timestamp":"2026-01-05T10:00:00.000Z"}`+"\n"))
	}
	r := sessionsJSON(t, root)
	shared := 0
	for _, p := range r.Problems {
		if p.Kind == "paths-share-folder" {
			shared++
			if len(p.Paths) != len(dirs) {
				t.Errorf("the problem names %d directories, want %d", len(p.Paths), len(dirs))
			}
		}
	}
	if shared != 1 || len(r.Sessions) != len(dirs) {
		t.Fatalf("%d paths-share-folder problems and %d sessions, want 1 and %d", shared, len(r.Sessions), len(dirs))
	}
	want := fmt.Sprintf("or %d other directories of the same project folder", len(dirs)-6)
	for _, s := range r.Sessions {
		n := 0
		for _, note := range s.Picker.Notes {
			if note.Code == "folder-shared-with-other-path" {
				n++
				if !strings.Contains(note.Detail, want) || strings.Count(note.Detail, `"/a`) != 6 {
					t.Fatalf("%s: %s; want five other directories named, %q", s.SessionID, note.Detail, want)
				}
			}
		}
		if n != 1 {
			t.Fatalf("%s: %d shared-folder notes", s.SessionID, n)
		}
	}
}

// TestScalingFixBlankLines: a transcript with a blank line after each of
// its 20,000 entries. fix planned each blank line's edit against every edit
// chosen before it, sorting them all again each time, mapped each position
// through every edit, and --diff counted the lines from the start of the
// file for each one (40,000: 9 s to plan, 20 s with --diff).
func TestScalingFixBlankLines(t *testing.T) {
	isolate(t)
	const n = 20000
	var b strings.Builder
	for i := 1; i <= n; i++ {
		parent := ""
		if i > 1 {
			parent = nthUUID(i - 1)
		}
		b.WriteString(userLine(nthUUID(i), parent, `"line `+fmt.Sprint(i)+`"`) + "\n\n")
	}
	p := writeFile(t, filepath.Join(t.TempDir(), hostileSession+".jsonl"), []byte(b.String()))
	out, errOut, code := run(t, "", "fix", "--diff", p)
	if code != ExitFindings || !strings.Contains(out, fmt.Sprintf("%d safe, 0 unsafe", n)) {
		t.Fatalf("fix: code %d\n%.500s%s", code, out, errOut)
	}
	// The diff numbers every blank line, the last one too.
	if !strings.Contains(out, fmt.Sprintf("@@ line %d @@", 2*n)) || strings.Count(out, "@@ line ") != n {
		t.Errorf("the diff has %d hunks, or none at line %d", strings.Count(out, "@@ line "), 2*n)
	}
}

// TestScalingFixCopies: thousands of exact copies of one entry, then a
// subagent's entries, then main-conversation entries whose parents are
// gone. fix compared each copy with every other line of its uuid, and
// looked for each orphan's nearest entry of its chain back through every
// subagent line (8,000 copies and as many subagent lines: 4.8 s); the
// copies are now matched by a hash of their bytes, and one pass down the
// file finds each line's nearest entry of its chain.
func TestScalingFixCopies(t *testing.T) {
	isolate(t)
	const n = 3000
	var lines []string
	first := userLine(nthUUID(1), "", `"hi"`)
	for range n {
		lines = append(lines, first)
	}
	side := func(i int) string { return fmt.Sprintf("00000000-0000-4000-9000-%012d", i) }
	for i := 1; i <= n; i++ {
		parent := ""
		if i > 1 {
			parent = side(i - 1)
		}
		l := strings.Replace(userLine(side(i), parent, `"s"`), `"isSidechain":false`, `"isSidechain":true,"agentId":"a1"`, 1)
		lines = append(lines, l)
	}
	lines = append(lines, userLine(nthUUID(2), "00000000-0000-4000-a000-000000000001", `"o"`))
	p := writeFile(t, filepath.Join(t.TempDir(), hostileSession+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"))
	out, errOut, code := run(t, "", "fix", p)
	// Lines 3 to n each delete the copy before them, line 2 itself.
	if copies := strings.Count(out, "an exact copy of this line"); code != ExitFindings || copies != n-2 {
		t.Fatalf("fix: code %d, %d copies deleted\n%.500s%s", code, copies, out, errOut)
	}
	if want := fmt.Sprintf(":%d: [safe] duplicate-uuid: delete line %d, an exact copy", n, n-1); !strings.Contains(out, want) {
		t.Errorf("no %q in the plan", want)
	}
	// The orphan is re-linked to the last main-conversation entry, the
	// last copy, past every subagent line.
	if want := fmt.Sprintf(":%d: [safe] orphan-parent: re-link parentUuid to %s (line %d, user entry)", 2*n+1, nthUUID(1), n); !strings.Contains(out, want) {
		t.Errorf("no %q in the plan", want)
	}
}

// TestScalingSecretLines: long lines that the secret scan read once a
// keyword: a keyword repeated with no value between (key=key=…, each place
// read the run of value bytes to its end: 9.5 s for 250 KB), a token prefix
// repeated (glpat-glpat-…, each place searched for the line's end: 7.2 s
// for 4 MB), and thousands of key=<value> on one line (each match searched
// back for its line's start, and the generic rule's line allowlist read the
// whole line: 14.7 s for 1 MB).
func TestScalingSecretLines(t *testing.T) {
	isolate(t)
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 3000
	var values []string
	for range n {
		b := make([]byte, 18)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		values = append(values, "key="+base64.StdEncoding.EncodeToString(b)+" ")
	}
	dir := t.TempDir()
	lines := []string{
		userLine(nthUUID(1), "", `"`+strings.Repeat("key=", 60000)+`"`),
		userLine(nthUUID(2), nthUUID(1), `"`+strings.Repeat("glpat-", 200000)+`"`),
		userLine(nthUUID(3), nthUUID(2), `"`+strings.Join(values, "")+`"`),
	}
	p := writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"))
	out, _, _ := runJSON(t, p)
	found := 0
	for _, f := range out.Findings {
		if f.Rule != "secret" {
			continue
		}
		if f.Line != 3 {
			t.Errorf("a secret on line %d: %s", f.Line, f.Message)
		}
		found++
	}
	// A few random values are too poor in entropy for the generic rule.
	if found < n*9/10 || found > n {
		t.Errorf("%d secrets found on line 3, want most of %d", found, n)
	}
	for _, v := range values[:100] {
		if strings.Contains(fmt.Sprint(out.Findings), strings.TrimSuffix(strings.TrimPrefix(v, "key="), " ")) {
			t.Fatal("a secret's value is in the report")
		}
	}
}

// TestMaxPerFile: past --max-per-file findings of one rule in one file,
// the rest are counted in one finding at the first of them, of their
// highest severity; the summary counts them all; 0 lists them all. A 1 MB
// file of blank lines held a million findings (411 MB).
func TestMaxPerFile(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	p := writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(strings.Repeat("\n", 25)))
	out, _, _ := runJSON(t, "--max-per-file", "10", p)
	if len(out.Findings) != 11 || out.Summary["warnings"] != 25 || out.Summary["unlisted"] != 14 {
		t.Fatalf("%d findings, summary %+v; want 11 listed, 25 warnings, 14 unlisted", len(out.Findings), out.Summary)
	}
	last := out.Findings[10]
	if last.Line != 11 || last.Severity != "warning" || !strings.HasPrefix(last.Message, "15 more blank-line findings in this file are not listed (15 warnings;") {
		t.Errorf("the last finding: line %d, %s: %s", last.Line, last.Severity, last.Message)
	}
	// One past the limit: the words agree with the count, and the
	// finding keeps the fingerprint it had when they did not (a baseline
	// written then still hides it), the same as for 15.
	one := filepath.Join(t.TempDir(), hostileSession+".jsonl")
	writeFile(t, one, []byte(strings.Repeat("\n", 11)))
	o1, _, _ := runJSON(t, "--max-per-file", "10", one)
	if m := o1.Findings[len(o1.Findings)-1].Message; !strings.HasPrefix(m, "1 more blank-line finding in this file is not listed (1 warning;") {
		t.Errorf("one not listed: %s", m)
	}
	f1 := lastFingerprint(t, one)
	writeFile(t, one, []byte(strings.Repeat("\n", 25)))
	f15 := lastFingerprint(t, one)
	old := finding.Fingerprint(&finding.Finding{Rule: "blank-line", Path: one, Message: "15 more blank-line findings in " +
		"this file are not listed (15 warning; " + strings.SplitN(last.Message, "; ", 2)[1]})
	if f1 != f15 || f15 != old {
		t.Errorf("fingerprints of the finding that stands for the rest: 1 not listed %s, 15 %s; want the old wording's %s", f1, f15, old)
	}
	if all, _, _ := runJSON(t, "--max-per-file", "0", p); len(all.Findings) != 25 || all.Summary["unlisted"] != 0 {
		t.Errorf("--max-per-file 0: %d findings, %d unlisted", len(all.Findings), all.Summary["unlisted"])
	}
	stdout, _, _ := run(t, "", "--max-per-file", "10", "--no-snippet", p)
	if !strings.Contains(stdout, "25 warnings, 0 notes (14 not listed: --max-per-file)") || !strings.Contains(stdout, "of those listed fixable") {
		t.Errorf("text report:\n%s", stdout)
	}
	// A baseline that hides the finding standing for the unlisted ones
	// hides them from the summary too (they stayed counted: "14 not
	// listed", under --fail-on note an exit 0).
	base := filepath.Join(dir, "baseline.json")
	runJSON(t, "--max-per-file", "10", "--write-baseline", base, p)
	if out, _, _ := runJSON(t, "--max-per-file", "10", "--baseline", base, p); len(out.Findings) != 0 ||
		out.Summary["warnings"] != 0 || out.Summary["unlisted"] != 0 {
		t.Errorf("with the baseline: %d findings, summary %+v", len(out.Findings), out.Summary)
	}
	// The default lists 10,000 of a rule in a file.
	big := writeFile(t, filepath.Join(dir, "big", hostileSession+".jsonl"), []byte(strings.Repeat("\n", 30000)))
	if out, _, _ := runJSON(t, big); len(out.Findings) != 10001 || out.Summary["warnings"] != 30000 {
		t.Errorf("default: %d findings, %d warnings", len(out.Findings), out.Summary["warnings"])
	}
}

// TestScalingFixBlocks: one line of thousands of tool calls no result
// answers, with a reply after it; one line of thousands of results that
// answer no call; and one of results on a side branch of their calls'
// line. fix looked each finding's block up from the start of its line,
// matched every result of the line again for each, and scanned the file
// after the line for the call's group and follower (2,500 calls: 6.3 s,
// 10,000 results: 42 s); each line is now indexed once (a Locator), its
// results matched once, and the groups and followers found from an index.
func TestScalingFixBlocks(t *testing.T) {
	isolate(t)
	const n = 2000
	asst := func(uuid, parent, content string) string {
		return strings.Replace(userLine(uuid, parent, content), `"type":"user","message":{"role":"user",`,
			`"type":"assistant","message":{"id":"msg_1","role":"assistant",`, 1)
	}
	blocks := func(f func(i int) string) string {
		var b []string
		for i := range n {
			b = append(b, f(i))
		}
		return "[" + strings.Join(b, ",") + "]"
	}
	use := func(i int) string {
		return fmt.Sprintf(`{"type":"tool_use","id":"toolu_%08d","name":"Bash","input":{"command":"ls"}}`, i)
	}
	result := func(i int) string {
		return fmt.Sprintf(`{"type":"tool_result","tool_use_id":"toolu_%08d","content":"x"}`, i)
	}
	file := func(lines ...string) string {
		return writeFile(t, filepath.Join(t.TempDir(), hostileSession+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"))
	}
	calls := file(userLine(nthUUID(1), "", `"hi"`), asst(nthUUID(2), nthUUID(1), blocks(use)), userLine(nthUUID(3), nthUUID(2), `"next"`))
	results := file(userLine(nthUUID(1), "", `"hi"`), userLine(nthUUID(2), nthUUID(1), blocks(result)))
	offChain := file(userLine(nthUUID(1), "", `"hi"`), asst(nthUUID(2), nthUUID(1), blocks(use)),
		userLine(nthUUID(3), nthUUID(1), blocks(result)), asst(nthUUID(4), nthUUID(2), `[{"type":"text","text":"ok"}]`))
	out, errOut, code := run(t, "", "fix", "--unsafe", calls, results, offChain)
	if code != ExitFindings && code != ExitRefused {
		t.Fatalf("fix: code %d\n%.500s%s", code, out, errOut)
	}
	for _, want := range []struct {
		text  string
		count int
	}{
		{calls + ":2: [unsafe] unmatched-tool-use: insert after line 2 a user entry ", n},
		{fmt.Sprintf("holding the reader's own result for toolu_%08d (", n-1), 1},
		{results + ":2: [unsafe] unmatched-tool-result: replace the tool_result block (call ", n},
		{fmt.Sprintf("(call toolu_%08d exists nowhere)", n-1), 1},
		{offChain + ":3: [safe] tool-result-off-chain: re-point parentUuid to " + nthUUID(2) + " (line 2, which holds the call)\n", n},
	} {
		if got := strings.Count(out, want.text); got != want.count {
			t.Errorf("%d times %q in the plan, want %d", got, want.text, want.count)
		}
	}
	if !strings.Contains(out, fmt.Sprintf("%d safe, %d unsafe, 0 manual fix(es) in 3 file(s)", n, 2*n)) {
		t.Errorf("the summary line is not the plan's\n%s", out[max(0, len(out)-500):])
	}
}

// lastFingerprint is the fingerprint (SARIF's, without its ":N") of the
// last finding of a lint of path with --max-per-file 10.
func lastFingerprint(t *testing.T, path string) string {
	t.Helper()
	stdout, _, _ := run(t, "", "--max-per-file", "10", "--format", "sarif", path)
	var doc struct {
		Runs []struct {
			Results []struct {
				Partial map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Runs) == 0 || len(doc.Runs[0].Results) == 0 {
		t.Fatalf("SARIF report: %v", err)
	}
	rs := doc.Runs[0].Results
	fp, _, _ := strings.Cut(rs[len(rs)-1].Partial["ccvetFingerprint/v1"], ":")
	return fp
}
