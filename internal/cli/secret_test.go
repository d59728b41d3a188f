package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/ledger"
	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// secretStore is a data root with secrets, made at test time, in every place
// Claude Code keeps a copy: a prompt, a tool_use input, a tool_result (a PEM
// key, JSON-escaped), an api-request-blob, a subagent transcript,
// history.jsonl (display and pastedContents), todos, paste-cache/,
// tool-results/ and a file-history backup.
type secretStore struct {
	root                    string
	aws, gh, pem, ant, slak string
	blobHash                string
	// want maps a path from the root to the fingerprints expected there,
	// with their line.
	want map[string]map[string]int
}

const (
	secretSID  = "5ec7e700-0000-4000-8000-000000000001"
	secretProj = "-tmp-app"
)

func makeSecretStore(t *testing.T) *secretStore {
	t.Helper()
	g := secrettest.New(25)
	st := &secretStore{root: t.TempDir(), aws: g.AWS(), gh: g.GitHub(), pem: g.PEM(), ant: g.Anthropic(), slak: g.Slack()}
	proj := filepath.Join(st.root, "projects", secretProj)
	write := func(rel, data string) {
		p := filepath.Join(st.root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_ = proj
	line := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	n := 0
	entry := func(typ, parent string, msg any) (map[string]any, string) {
		n++
		uuid := fmt.Sprintf("5ec7e700-0000-4000-8000-%012d", 100+n)
		m := map[string]any{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/tmp/app",
			"sessionId": secretSID, "version": "2.1.330", "gitBranch": "", "type": typ, "message": msg,
			"uuid": uuid, "timestamp": fmt.Sprintf("2026-11-25T10:00:%02d.000Z", n)}
		if parent != "" {
			m["parentUuid"] = parent
		}
		return m, uuid
	}
	asst := func(id string, content ...any) map[string]any {
		return map[string]any{"id": id, "type": "message", "role": "assistant", "model": "claude-test",
			"content": content, "stop_reason": "end_turn", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}
	}
	var b strings.Builder
	u1, id1 := entry("user", "", map[string]any{"role": "user", "content": "deploy with AWS_ACCESS_KEY_ID=" + st.aws + " now"})
	b.WriteString(line(u1))
	a1, id2 := entry("assistant", id1, asst("msg_01", map[string]any{"type": "tool_use", "id": "toolu_01", "name": "Bash",
		"input": map[string]any{"command": "curl -H 'Authorization: token " + st.gh + "' https://api.github.com/user"}}))
	b.WriteString(line(a1))
	u2, id3 := entry("user", id2, map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result",
		"tool_use_id": "toolu_01", "content": "id_rsa:\n" + st.pem + "\n"}}})
	b.WriteString(line(u2))
	a2, id4 := entry("assistant", id3, asst("msg_02", map[string]any{"type": "text", "text": "done"}))
	b.WriteString(line(a2))
	u3, id5 := entry("user", id4, map[string]any{"role": "user", "content": "thanks"})
	b.WriteString(line(u3))
	a3, _ := entry("assistant", id5, asst("msg_03", map[string]any{"type": "text", "text": "ok"}))
	b.WriteString(line(a3))
	blob := map[string]any{"role": "user", "content": "deploy with AWS_ACCESS_KEY_ID=" + st.aws + " now"}
	sum := sha256.Sum256(ledger.AppendMessageCanon(nil, jsontree.AnyVal(blob)))
	st.blobHash = hex.EncodeToString(sum[:])
	b.WriteString(line(map[string]any{"type": "api-request-blob", "hash": st.blobHash, "message": blob, "sessionId": secretSID}))
	b.WriteString(line(map[string]any{"type": "api-request", "id": "req_1", "keep": 0, "tail": []any{st.blobHash}, "sessionId": secretSID}))
	write("projects/"+secretProj+"/"+secretSID+".jsonl", b.String())

	sa, _ := entry("user", "", map[string]any{"role": "user", "content": "use ANTHROPIC_API_KEY=" + st.ant})
	sa["isSidechain"], sa["agentId"] = true, "a1"
	write("projects/"+secretProj+"/"+secretSID+"/subagents/agent-a1.jsonl", line(sa))
	write("history.jsonl", line(map[string]any{"display": "deploy with AWS_ACCESS_KEY_ID=" + st.aws + " now", "pastedContents": map[string]any{},
		"timestamp": int64(1765935954080), "project": "/tmp/app", "sessionId": secretSID})+
		line(map[string]any{"display": "[Pasted text #1]", "pastedContents": map[string]any{"1": map[string]any{"id": 1, "type": "text", "content": "SLACK=" + st.slak}},
			"timestamp": int64(1765935954081), "project": "/tmp/app", "sessionId": secretSID}))
	write("todos/"+secretSID+"-agent-"+secretSID+".json", line([]any{map[string]any{"content": "rotate " + st.gh, "status": "pending", "activeForm": "Rotating"}}))
	write("paste-cache/abc.txt", "pasted:\nexport GITHUB_TOKEN="+st.gh+"\n")
	write("projects/"+secretProj+"/"+secretSID+"/tool-results/toolu_01.txt", "header\n"+st.pem+"\n")
	write("file-history/"+secretSID+"/0123456789abcdef@v1", "x = 1\nAWS_ACCESS_KEY_ID="+st.aws+"\n")

	fp := secret.Fingerprint
	tr := "projects/" + secretProj + "/" + secretSID + ".jsonl"
	st.want = map[string]map[string]int{
		tr: {fp(st.aws): 1, fp(st.gh): 2, fp(st.pem): 3},
		"projects/" + secretProj + "/" + secretSID + "/subagents/agent-a1.jsonl": {fp(st.ant): 1},
		"history.jsonl": {fp(st.aws): 1, fp(st.slak): 2},
		"todos/" + secretSID + "-agent-" + secretSID + ".json": {fp(st.gh): 1},
		"paste-cache/abc.txt": {fp(st.gh): 2},
		"projects/" + secretProj + "/" + secretSID + "/tool-results/toolu_01.txt": {fp(st.pem): 2},
		"file-history/" + secretSID + "/0123456789abcdef@v1":                      {fp(st.aws): 2},
	}
	return st
}

func (st *secretStore) values() []string { return []string{st.aws, st.gh, st.pem, st.ant, st.slak} }

// leaks reports the secrets out shows, whole or in part: any 16 bytes of
// one (of a line of the PEM key's body), raw or with '/' escaped.
func (st *secretStore) leaks(out string) []string {
	var got []string
	for _, v := range st.values() {
		parts := []string{v}
		if strings.Contains(v, "\n") {
			parts = strings.Split(v, "\n")[1:4]
		}
	part:
		for _, p := range parts {
			for i := 0; i+16 <= len(p); i += 4 {
				c := p[i : i+16]
				if strings.Contains(out, c) || strings.Contains(out, strings.ReplaceAll(c, "/", `\/`)) {
					got = append(got, p[:8]+"…")
					continue part
				}
			}
		}
	}
	return got
}

func TestSecretEverySurface(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	st := makeSecretStore(t)
	var stdout, stderr bytes.Buffer
	code := Main([]string{"--format", "json", st.root}, strings.NewReader(""), &stdout, &stderr)
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out jsonOut
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]int{}
	for _, f := range out.Findings {
		if f.Rule != "secret" {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(f.Path, filepath.ToSlash(st.root)), "/")
		fp := strings.Fields(f.Message)
		var print string
		for _, w := range fp {
			if len(w) == 12 && strings.Trim(w, "0123456789abcdef") == "" {
				print = w
			}
		}
		if got[rel] == nil {
			got[rel] = map[string]int{}
		}
		if _, dup := got[rel][print]; dup {
			t.Errorf("%s: %s reported twice", rel, print)
		}
		got[rel][print] = f.Line
	}
	for path, want := range st.want {
		for fp, line := range want {
			if got[path][fp] != line {
				t.Errorf("%s: secret %s at line %d, want %d (got %v)", path, fp, got[path][fp], line, got[path])
			}
		}
	}
	for path, g := range got {
		if len(g) != len(st.want[path]) {
			t.Errorf("%s: %d secrets reported, want %d: %v", path, len(g), len(st.want[path]), g)
		}
	}
	// The first AWS key: twice in the transcript (the prompt, the ledger
	// blob), once in history, once in the backup; sent again by the 3
	// assistant requests after it.
	for _, f := range out.Findings {
		if f.Rule == "secret" && strings.HasSuffix(f.Path, secretSID+".jsonl") && f.Line == 1 {
			for _, w := range []string{"AWS access key", "2 times in this file", "4 times in the store", "again by 3 later requests"} {
				if !strings.Contains(f.Message, w) {
					t.Errorf("message %q lacks %q", f.Message, w)
				}
			}
		}
	}
}

// No output format, snippet, baseline or explanation shows a secret.
func TestSecretNeverPrinted(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	st := makeSecretStore(t)
	// A fix on a line holding a secret: its --diff shows the line.
	hist := filepath.Join(st.root, "projects", secretProj, secretSID, "subagents", "agent-a1.jsonl")
	if b, err := os.ReadFile(hist); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(hist, bytes.TrimSuffix(b, []byte("\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(t.TempDir(), "baseline.json")
	runs := [][]string{
		{"fix", "--diff", st.root},
		{"fix", "--unsafe", "--diff", st.root},
		{st.root},
		{"--format", "json", st.root},
		{"--format", "sarif", st.root},
		{"--format", "github", st.root},
		{"--write-baseline", base, st.root},
		{"--baseline", base, st.root},
		{"fix", st.root},
	}
	for _, args := range runs {
		var stdout, stderr bytes.Buffer
		Main(args, strings.NewReader(""), &stdout, &stderr)
		if l := st.leaks(stdout.String() + stderr.String()); len(l) > 0 {
			t.Errorf("ccvet %v prints secrets %v", args[:len(args)-1], l)
		}
		if len(args) > 1 && args[len(args)-2] == "--diff" && !strings.Contains(stdout.String(), "+++") {
			t.Errorf("fix --diff shows no diff:\n%s", stdout.String())
		}
	}
	if b, err := os.ReadFile(base); err != nil {
		t.Fatal(err)
	} else if l := st.leaks(string(b)); len(l) > 0 {
		t.Errorf("the baseline holds secrets %v", l)
	}
	// Text output shows snippets: the secret's bytes are masked there.
	var stdout bytes.Buffer
	Main([]string{st.root}, strings.NewReader(""), &stdout, &bytes.Buffer{})
	if !strings.Contains(stdout.String(), "****") {
		t.Errorf("no masked snippet in:\n%s", stdout.String())
	}
}

// The rule is off like any other, and a baseline silences its findings.
func TestSecretSelectionAndBaseline(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	st := makeSecretStore(t)
	count := func(args ...string) int {
		out, _, _ := runJSON(t, args...)
		n := 0
		for _, f := range out.Findings {
			if f.Rule == "secret" {
				n++
			}
		}
		return n
	}
	if n := count("--disable", "secret", st.root); n != 0 {
		t.Errorf("--disable secret: %d findings", n)
	}
	// Paths and rules in .ccvet.yaml.
	cfg := filepath.Join(t.TempDir(), ".ccvet.yaml")
	if err := os.WriteFile(cfg, []byte("ignore:\n  - path: file-history/**\n    rules: [secret]\n    reason: dummy keys in backups\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	all := count(st.root)
	out, _, _ := runJSON(t, "--config", cfg, st.root)
	n := 0
	for _, f := range out.Findings {
		if f.Rule == "secret" {
			n++
			if strings.Contains(f.Path, "file-history/") {
				t.Errorf("ignored path reported: %s", f.Path)
			}
		}
	}
	if n != all-1 {
		t.Errorf("with the ignore: %d secret findings, want %d", n, all-1)
	}
	base := filepath.Join(t.TempDir(), "b.json")
	count("--write-baseline", base, st.root)
	if n := count("--baseline", base, st.root); n != 0 {
		t.Errorf("with the baseline: %d findings", n)
	}
	// The baseline of the whole store matches a run over one transcript
	// (a pre-commit hook's), which counts no copies in the store, and
	// the store once the session has gone on (more copies, more later
	// requests). Before, a secret's fingerprint hashed its message with
	// those counts: ", 4 times in the store" and "1 later request" made
	// the baselined secret new again.
	tr := filepath.Join(st.root, "projects", secretProj, secretSID+".jsonl")
	if n := count("--baseline", base, tr); n != 0 {
		t.Errorf("with the store's baseline, over one transcript: %d secret findings", n)
	}
	b, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	first := b[:bytes.IndexByte(b, '\n')+1]
	var e map[string]any
	if err := json.Unmarshal(first, &e); err != nil {
		t.Fatal(err)
	}
	again := bytes.Replace(first, []byte(e["uuid"].(string)), []byte("5ec7e700-0000-4000-8000-0000000000ff"), 1)
	if err := os.WriteFile(tr, append(b, again...), 0o644); err != nil {
		t.Fatal(err)
	}
	if all2 := count(st.root); all2 != all {
		t.Fatalf("the copy made %d secret findings, want %d", all2, all)
	}
	if n := count("--baseline", base, st.root); n != 0 {
		t.Errorf("with the baseline, once the secret has one more copy: %d secret findings", n)
	}
}

// snapshot reads every file under root.
func snapshot(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type findingKey struct {
	rule, path string
	line       int
}

func lintKeys(t *testing.T, root string) (others map[findingKey]string, secrets int) {
	t.Helper()
	out, _, _ := runJSON(t, root)
	others = map[findingKey]string{}
	for _, f := range out.Findings {
		if f.Rule == "secret" {
			secrets++
			continue
		}
		others[findingKey{f.Rule, f.Path, f.Line}] = f.Message
	}
	return others, secrets
}

// ccvet redact: the plan names every copy and no value; --write leaves no
// copy anywhere under the data root, keeps every line valid JSON and the
// request ledger consistent (lint reports no secret and nothing new); --undo
// restores every byte.
func TestRedactWriteUndo(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	st := makeSecretStore(t)
	backups := t.TempDir()
	before := snapshot(t, st.root)
	othersBefore, secretsBefore := lintKeys(t, st.root)
	if secretsBefore == 0 {
		t.Fatal("no secret found before")
	}

	stdout, stderr, code := run(t, "", "redact", st.root)
	if code != ExitFindings {
		t.Fatalf("plan: exit %d: %s", code, stderr)
	}
	if l := st.leaks(stdout + stderr); len(l) > 0 {
		t.Errorf("the plan prints secrets %v", l)
	}
	for _, v := range st.values() {
		if !strings.Contains(stdout, secret.Fingerprint(v)) {
			t.Errorf("the plan does not name %s:\n%s", secret.Fingerprint(v), stdout)
		}
	}
	if !bytes.Equal(mustJSON(t, snapshot(t, st.root)), mustJSON(t, before)) {
		t.Fatal("the plan changed files")
	}

	stdout, stderr, code = run(t, "", "redact", "--write", "--force", "--backup-dir", backups, st.root)
	if code != ExitOK {
		t.Fatalf("--write: exit %d: %s%s", code, stdout, stderr)
	}
	if l := st.leaks(stdout + stderr); len(l) > 0 {
		t.Errorf("--write prints secrets %v", l)
	}
	after := snapshot(t, st.root)
	for p, b := range after {
		if l := st.leaks(string(b)); len(l) > 0 {
			t.Errorf("%s still holds %v", p, l)
		}
	}
	if !bytes.Contains(after[filepath.Join(st.root, "history.jsonl")], []byte("[REDACTED:aws-access-token:"+secret.Fingerprint(st.aws)+"]")) {
		t.Errorf("history.jsonl: no placeholder")
	}
	othersAfter, secretsAfter := lintKeys(t, st.root)
	if secretsAfter != 0 {
		t.Errorf("lint still reports %d secrets", secretsAfter)
	}
	for k, msg := range othersAfter {
		if _, ok := othersBefore[k]; !ok {
			t.Errorf("new finding after redact: %v: %s", k, msg)
		}
	}
	tr := after[filepath.Join(st.root, "projects", secretProj, secretSID+".jsonl")]
	if bytes.Contains(tr, []byte(st.blobHash)) {
		t.Errorf("the ledger still names the blob by its old hash")
	}

	stdout, stderr, code = run(t, "", "redact", "--undo", "--backup-dir", backups)
	if code != ExitOK {
		t.Fatalf("--undo: exit %d: %s%s", code, stdout, stderr)
	}
	restored := snapshot(t, st.root)
	for p, b := range before {
		if !bytes.Equal(restored[p], b) {
			t.Errorf("%s: not restored byte for byte", p)
		}
	}
	stdout, _, _ = run(t, "", "redact", "--list-backups", "--backup-dir", backups)
	if !strings.Contains(stdout, "file(s)") {
		t.Errorf("--list-backups: %s", stdout)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRedactHelp(t *testing.T) {
	stdout, _, code := run(t, "", "redact", "--help")
	if code != ExitOK || !strings.HasPrefix(stdout, "") || !strings.Contains(stdout, "Usage: ccvet redact [--write]") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}

// redact on paths that hold nothing to search exits 2 and says so, as lint
// and fix do; --allow-empty makes it exit 0 ("no secret found").
func TestRedactNothingToSearch(t *testing.T) {
	empty := t.TempDir()
	_, stderr, code := run(t, "", "redact", empty)
	if code != ExitUsage || !strings.Contains(stderr, "nothing to check in "+empty+": no files") {
		t.Errorf("redact on an empty folder: exit %d, stderr %q; want 2, nothing to check", code, stderr)
	}
	stdout, _, code := run(t, "", "redact", "--allow-empty", empty)
	if code != ExitOK || stdout != "no secret found\n" {
		t.Errorf("redact --allow-empty on an empty folder: exit %d, stdout %q", code, stdout)
	}
	if _, _, code := run(t, "", "redact", abs(t, filepath.Join(fixtures, "blank-line", "good"))); code != ExitOK {
		t.Errorf("redact on a folder with a clean transcript: exit %d, want 0", code)
	}
}

// fix --diff clips a changed line around its edit: a secret there is masked.
func TestDiffLineMasksSecrets(t *testing.T) {
	gh := secrettest.New(3).GitHub()
	line := []byte(`{"type":"user","message":{"role":"user","content":"token ` + gh + ` here"}}` + "\n")
	got := clipLine(line, int64(bytes.Index(line, []byte(gh))))
	if strings.Contains(got, gh[4:20]) || !strings.Contains(got, "****") {
		t.Errorf("clipLine shows the secret: %s", got)
	}
}

// A key in a line that does not parse (here history.jsonl's torn line with
// the next prompt glued onto it, written inside escaped quotes) is
// reported by the rule, masked in the invalid-json finding's snippet, and
// planned by redact. Before, the rule skipped the line, redact said "no
// secret found", and the snippet printed the key.
func TestSecretInGluedLine(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	key := secrettest.New(9).Generic()
	root := t.TempDir()
	prompt, _ := json.Marshal(map[string]any{"display": `export SECRET_KEY="` + key + `"`, "pastedContents": map[string]any{},
		"timestamp": int64(1763632800001), "project": "/tmp/app", "sessionId": secretSID})
	hist := `{"display":"hello","pastedContents":{},"timestamp":1763632800000,"project":"/tmp/app","sessionId":"` + secretSID + "\"}\n" +
		`{"display":"abc","pastedCont` + string(prompt) + "\n"
	if err := os.WriteFile(filepath.Join(root, "history.jsonl"), []byte(hist), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	Main([]string{"--no-config", filepath.Join(root, "history.jsonl")}, strings.NewReader(""), &stdout, &stderr)
	out := stdout.String() + stderr.String()
	if strings.Contains(out, key) {
		t.Errorf("the lint prints the key:\n%s", strings.ReplaceAll(out, key, "<KEY>"))
	}
	if !strings.Contains(out, "[invalid-json]") || !strings.Contains(out, secret.Fingerprint(key)+" (gitleaks rule generic-api-key)") {
		t.Errorf("want an invalid-json finding and the key's secret finding:\n%s", strings.ReplaceAll(out, key, "<KEY>"))
	}
	// A torn todo list: the same.
	gh := secrettest.New(9).GitHub()
	todo, _ := json.Marshal([]map[string]any{{"content": `rotate "` + gh + `"`, "status": "pending", "activeForm": "Rotating"}})
	if err := os.MkdirAll(filepath.Join(root, "todos"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "todos", secretSID+"-agent-"+secretSID+".json"), todo[:len(todo)-5], 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	Main([]string{"--no-config", filepath.Join(root, "todos")}, strings.NewReader(""), &stdout, &stderr)
	if out := stdout.String(); strings.Contains(out, gh) || !strings.Contains(out, secret.Fingerprint(gh)+" (gitleaks rule github-pat)") {
		t.Errorf("want the torn todo list's key reported, never printed:\n%s", strings.ReplaceAll(out, gh, "<KEY>"))
	}
	stdout.Reset()
	stderr.Reset()
	code := Main([]string{"redact", root}, strings.NewReader(""), &stdout, &stderr)
	for _, k := range []string{key, gh} {
		if code != ExitFindings || !strings.Contains(stdout.String(), secret.Fingerprint(k)) || strings.Contains(stdout.String(), k) {
			t.Errorf("redact plan, exit %d:\n%s%s", code, strings.ReplaceAll(stdout.String(), k, "<KEY>"), stderr.String())
		}
	}
	// A torn line holding a PEM key (its \n escapes in the raw bytes):
	// redact replaces it, and then no secret is left to report.
	pem := secrettest.New(9).PEM()
	tr, _ := json.Marshal(map[string]any{"type": "user", "uuid": "5ec7e700-0000-4000-8000-0000000000aa", "sessionId": secretSID,
		"message": map[string]any{"role": "user", "content": "key:\n" + pem + "\nend"}})
	proj := filepath.Join(root, "projects", secretProj)
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, secretSID+".jsonl"), tr[:len(tr)-20], 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := Main([]string{"redact", "--write", "--force", "--backup-dir", t.TempDir(), root}, strings.NewReader(""), &stdout, &stderr); code != ExitOK {
		t.Fatalf("redact --write: exit %d: %s", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	Main([]string{"--no-config", "-q", "--no-snippet", "--disable", "unused-ignore", root}, strings.NewReader(""), &stdout, &stderr)
	if strings.Contains(stdout.String(), "[secret]") {
		t.Errorf("secrets left after redact --write:\n%s", stdout.String())
	}
	for _, k := range []string{key, gh, pem[40:80]} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(k)) || bytes.Contains(b, []byte(esc(k))) {
					t.Errorf("%s still holds a key", p)
				}
			}
			return nil
		})
	}
}

func esc(s string) string { q, _ := json.Marshal(s); return string(q[1 : len(q)-1]) }

// `ccvet sessions` shows each session's first prompt and picker label and
// quotes the first prompt of a session lost from history.jsonl: the
// session's own words, where a key pasted into a prompt or a title sits.
// They are masked like a snippet, before they are clipped (a key cut in
// two would no longer be found). Before, every one was printed.
func TestSessionsMaskSecrets(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	g := secrettest.New(11)
	root := t.TempDir()
	proj := filepath.Join(root, "projects", secretProj)
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	var keys []string
	key := func() string { k := g.GitHub(); keys = append(keys, k); return k }
	line := func(v map[string]any) string { b, _ := json.Marshal(v); return string(b) + "\n" }
	user := func(sid, text string) string {
		return line(map[string]any{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/tmp/app",
			"sessionId": sid, "version": "2.1.110", "gitBranch": "", "type": "user", "uuid": sid[:35] + "a",
			"timestamp": "2026-11-20T10:00:00.000Z", "message": map[string]any{"role": "user", "content": text}})
	}
	// A key in the prompt at each place a listing clips it (60 and 200
	// characters), and one in a title.
	for i, pad := range []int{10, 50, 190} {
		sid := fmt.Sprintf("5ec7e700-0000-4000-8000-00000000001%d", i)
		text := user(sid, strings.Repeat("y", pad)+" GITHUB_TOKEN="+key()+" tail")
		if i == 0 {
			text += line(map[string]any{"type": "custom-title", "customTitle": "deploy " + key(), "sessionId": sid})
		}
		if err := os.WriteFile(filepath.Join(proj, sid+".jsonl"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hist := line(map[string]any{"display": strings.Repeat("z", 60) + " GITHUB_TOKEN=" + key(), "pastedContents": map[string]any{},
		"timestamp": int64(1763632800000), "project": "/tmp/app", "sessionId": "5ec7e700-0000-4000-8000-000000000099"})
	if err := os.WriteFile(filepath.Join(root, "history.jsonl"), []byte(hist), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"sessions", root}, {"sessions", "--format", "json", root}, {"sessions", "--paths", root}} {
		var stdout, stderr bytes.Buffer
		if code := Main(args, strings.NewReader(""), &stdout, &stderr); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args[:len(args)-1], code, stderr.String())
		}
		out := stdout.String() + stderr.String()
		for i, k := range keys {
			if strings.Contains(out, k[:8]) || strings.Contains(out, k[len(k)-8:]) {
				t.Errorf("%v shows key %d (or part of it)", args[:len(args)-1], i)
			}
		}
		if args[1] == root && !strings.Contains(out, "GITHUB_TOKEN=****") {
			t.Errorf("%v: no masked prompt in the listing", args[:len(args)-1])
		}
	}
}

// `ccvet resume` prints the messages a resume sends and `ccvet request`
// the request the ledger recorded: the session's own words. A key in them
// is masked as in a snippet, in the text summary (before its clip at 60
// characters) and in the JSON. Before, both printed it.
func TestResumeAndRequestMaskSecrets(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	g := secrettest.New(13)
	aws, gh, pem := g.AWS(), g.GitHub(), g.PEM()
	dir := t.TempDir()
	sid := "7b0c6a52-0d3e-4f57-9a61-2f3f6a1c2b10"
	b, err := os.ReadFile(filepath.Join(fixtures, "ledger-dangling-request-ref", "good", sid+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	esc := func(s string) string { q, _ := json.Marshal(s); return string(q[1 : len(q)-1]) }
	// The request: keys in a ledger blob (its hash is not checked).
	b = bytes.Replace(b, []byte("<environment placeholder>"), []byte(esc("env GITHUB_TOKEN="+gh+" AWS_ACCESS_KEY_ID="+aws+"\n"+pem)), 1)
	path := filepath.Join(dir, sid+".jsonl")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// The resume: keys in the prompt, one across the text summary's clip.
	b = bytes.Replace(b, []byte(`"List the files."`), []byte(`"`+strings.Repeat("y", 40)+` AWS_ACCESS_KEY_ID=`+aws+` `+esc(pem)+` `+gh+`"`), 1)
	other := filepath.Join(t.TempDir(), sid+".jsonl")
	if err := os.WriteFile(other, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"resume", other}, {"resume", "--format", "json", other}, {"request", path}} {
		var stdout, stderr bytes.Buffer
		code := Main(args, strings.NewReader(""), &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if code != ExitOK || !strings.Contains(out, "=*") {
			t.Errorf("%v: exit %d, no masked key:\n%s", args[:len(args)-1], code, out)
		}
		for i, k := range []string{aws[4:], gh[4:], pem[40:80]} {
			if strings.Contains(out, k) {
				t.Errorf("%v shows key %d", args[:len(args)-1], i)
			}
		}
		if args[len(args)-2] != "resume" && !json.Valid(stdout.Bytes()) {
			t.Errorf("%v: not JSON once masked:\n%s", args[:len(args)-1], stdout.String())
		}
	}
}

// ccvet fix splits two entries an append glued onto one line even when the
// second holds a key. Before, the lint did not scan the glued line, so the
// split "made" a secret finding, and fix refused the file (exit 4:
// "the fixed bytes have 1 secret finding(s), the original 0").
func TestFixSplitsGluedLineWithSecret(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	key := secrettest.New(19).Generic()
	dir := t.TempDir()
	var lines []string
	parent := any(nil)
	for i, text := range []string{"hi", "hello", `cfg: API_KEY="` + key + `"`, "ok", "more", "done"} {
		uuid := fmt.Sprintf("5ec7e700-0000-4000-8000-0000000001%02d", i)
		e := map[string]any{"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": "/tmp/app",
			"sessionId": secretSID, "version": "2.1.110", "gitBranch": "", "uuid": uuid,
			"timestamp": fmt.Sprintf("2026-11-20T10:00:0%d.000Z", i)}
		if i%2 == 0 {
			e["type"], e["message"] = "user", map[string]any{"role": "user", "content": text}
		} else {
			e["type"], e["requestId"] = "assistant", fmt.Sprintf("req_%d", i)
			e["message"] = map[string]any{"model": "claude-opus-4-5-20251101", "id": fmt.Sprintf("msg_%d", i), "type": "message",
				"role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}, "stop_reason": "end_turn",
				"stop_sequence": nil, "usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}
		}
		b, _ := json.Marshal(e)
		lines = append(lines, string(b))
		parent = uuid
	}
	text := lines[0] + "\n" + lines[1] + lines[2] + "\n" + strings.Join(lines[3:], "\n") + "\n" // line 2: two entries glued
	path := filepath.Join(dir, secretSID+".jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := Main([]string{"fix", "--diff", path}, strings.NewReader(""), &stdout, &stderr)
	out := stdout.String() + stderr.String()
	if code != ExitFindings || !strings.Contains(out, "split 2 fused entries") || strings.Contains(out, "verification failed") {
		t.Errorf("fix plan: exit %d:\n%s", code, strings.ReplaceAll(out, key, "<KEY>"))
	}
	if strings.Contains(out, key) {
		t.Errorf("fix --diff prints the key")
	}
}

// A finding's message quotes what it judges: an entry type, a timestamp,
// a parentUuid. The secret rule does not scan those fields (ids and
// names), so a key written there was printed in every format; messages
// are masked before any report or baseline shows them.
func TestMessagesMaskSecrets(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	g := secrettest.New(23)
	typ, ts := g.GitHub(), g.GitHub()
	line := func(v map[string]any) string { b, _ := json.Marshal(v); return string(b) + "\n" }
	e := func(typ, ts string) map[string]any {
		return map[string]any{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/tmp/app",
			"sessionId": secretSID, "version": "2.1.110", "gitBranch": "", "type": typ, "uuid": "5ec7e700-0000-4000-8000-0000000002" + ts[4:6],
			"timestamp": ts, "message": map[string]any{"role": "user", "content": "hi"}}
	}
	path := filepath.Join(t.TempDir(), secretSID+".jsonl")
	if err := os.WriteFile(path, []byte(line(e(typ, "2026-11-20T10:00:00.000Z"))+line(e("user", ts))), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(t.TempDir(), "b.json")
	for _, args := range [][]string{{"--no-snippet"}, {"-f", "json"}, {"-f", "sarif"}, {"-f", "github"}, {"--write-baseline", base}} {
		var stdout, stderr bytes.Buffer
		Main(append(append([]string{"--no-config", "--strict"}, args...), path), strings.NewReader(""), &stdout, &stderr)
		out := stdout.String() + stderr.String()
		for i, k := range []string{typ, ts} {
			if strings.Contains(out, k[4:]) {
				t.Errorf("%v shows key %d", args, i)
			}
		}
		if args[0] == "--no-snippet" && (!strings.Contains(out, "[unknown-type]") || !strings.Contains(out, "`timestamp`")) {
			t.Errorf("want the unknown-type and timestamp findings:\n%s", out)
		}
	}
	b, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), typ[4:]) || strings.Contains(string(b), ts[4:]) {
		t.Errorf("the baseline holds a key")
	}
}
