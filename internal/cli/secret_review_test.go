package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// Keys where the secret rule does not look (an entry's type, timestamp,
// parentUuid and uuid, a tool_use id, a member name) or where it does but
// a command printed the field as it is (a cwd), are shown by no command
// in any format: a lint snippet (TestMessagesMaskSecrets ran without
// one), the cwd `ccvet sessions` lists, the unknown names `ccvet stats`
// counts, the ids `ccvet fix` names in its plan.
func TestUnscannedFieldsMaskSecrets(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	g := secrettest.New(29)
	typ, ts, parent, member, toolID, cwd, uuid := g.GitHub(), g.GitHub(), g.GitHub(), g.GitHub(), g.GitHub(), g.GitHub(), g.AWS()
	keys := []string{typ, ts, parent, member, toolID, cwd, uuid}
	root := t.TempDir()
	proj := filepath.Join(root, "projects", secretProj)
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	e := func(uuid string, parent any, typ, ts string, msg map[string]any) map[string]any {
		return map[string]any{"uuid": uuid, "parentUuid": parent, "cwd": "/tmp/app/" + cwd, "type": typ, "timestamp": ts, "message": msg}
	}
	line := func(set map[string]any) string { return reviewLine(set["uuid"].(string), set) }
	user := map[string]any{"role": "user", "content": "hi"}
	call := map[string]any{"model": "claude-opus-4-5-20251101", "id": "msg_1", "type": "message", "role": "assistant",
		"content":     []any{map[string]any{"type": "tool_use", "id": toolID, "name": "Bash", "input": map[string]any{"command": "ls"}}},
		"stop_reason": "tool_use", "stop_sequence": nil, "usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}
	first := e(uuid, nil, "user", "2026-11-20T10:00:00.000Z", user)
	first[member] = 1
	text := line(first) +
		line(e("5ec7e700-0000-4000-8000-000000000302", uuid, "assistant", "2026-11-20T10:00:01.000Z", call)) +
		line(e("5ec7e700-0000-4000-8000-000000000303", parent, "user", "2026-11-20T10:00:02.000Z", user)) +
		line(e("5ec7e700-0000-4000-8000-000000000304", "5ec7e700-0000-4000-8000-000000000303", typ, "2026-11-20T10:00:03.000Z", user)) +
		line(e("5ec7e700-0000-4000-8000-000000000305", "5ec7e700-0000-4000-8000-000000000303", "user", ts, user))
	path := filepath.Join(proj, secretSID+".jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--no-config", "--strict", path}, {"--no-config", "--strict", "-v", path}, {"--no-config", "-f", "json", path},
		{"--no-config", "--strict", "-f", "json", path}, // the pointer of an unknown field named after a key
		{"--no-config", "-f", "sarif", path}, {"--no-config", "-f", "github", path}, {"--no-config", "--max-per-file", "1", path},
		{"sessions", root}, {"sessions", "--format", "json", root}, {"sessions", "--paths", root},
		{"stats", root}, {"stats", "--format", "json", root},
		{"fix", "--unsafe", path}, {"fix", "--unsafe", "-v", "--diff", path}, {"fix", "--unsafe", "-f", "json", path},
		{"fix", "--unsafe", "-f", "sarif", path},
		{"resume", path}, {"resume", "--format", "json", path}, {"resume", "--check", path},
		{"redact", root},
	} {
		var stdout, stderr bytes.Buffer
		Main(args, strings.NewReader(""), &stdout, &stderr)
		out := stdout.String() + stderr.String()
		for i, k := range keys {
			if strings.Contains(out, k[5:]) {
				t.Errorf("%v shows key %d", args[:len(args)-1], i)
			}
		}
		if strings.HasSuffix(strings.Join(args, " "), "json "+path) || strings.HasSuffix(strings.Join(args, " "), "json "+root) {
			if !json.Valid(stdout.Bytes()) {
				t.Errorf("%v: not JSON once masked", args[:len(args)-1])
			}
		}
	}
}

// `ccvet sessions --recover` writes a README.md of its own beside the
// copies of what survives (which are the user's data, as they were): it
// names the session's cwd, where a key sat unmasked.
func TestRecoverReadmeMasksSecrets(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	g := secrettest.New(37)
	key := g.Anthropic() // found before a quote or a space, not before the README's ')'

	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "projects", secretProj), 0o755); err != nil {
		t.Fatal(err)
	}
	sid := "5ec7e700-0000-4000-8000-000000000777"
	hist, _ := json.Marshal(map[string]any{"display": "hi", "pastedContents": map[string]any{},
		"timestamp": int64(1790000000000), "project": "/tmp/" + key, "sessionId": sid})
	if err := os.WriteFile(filepath.Join(root, "history.jsonl"), append(hist, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rec")
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"sessions", "--recover", sid, "--out", out, root}, strings.NewReader(""), &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b)+stdout.String()+stderr.String(), key[14:30]) {
		t.Error("the README or the output shows the key")
	}
	if !strings.Contains(string(b), "/tmp/****") {
		t.Error("no masked cwd in the README")
	}
}

// A report names each file it has a finding on: a transcript named after
// a key, or a project folder named after a cwd that holds an AWS key id
// (the cwd's encoding keeps its letters and digits) or a GitHub token (the
// encoding writes its '_' as '-'), printed the key in every format and in
// a baseline. Paths are masked as messages are; the
// snippets still show the file's lines, and a baseline written so hides
// the same findings.
func TestPathsMaskSecrets(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	g := secrettest.New(41)
	name, cwdKey, ghKey := g.GitHub(), g.AWS(), g.GitHub()
	root := t.TempDir()
	line := func(cwd, sid string) string {
		return reviewLine("5ec7e700-0000-4000-8000-000000000401", map[string]any{"cwd": cwd, "sessionId": sid})
	}
	for _, f := range []struct{ dir, file, cwd string }{
		{"-tmp-app", name + ".jsonl", "/tmp/app"},
		{"-tmp-" + cwdKey, secretSID + ".jsonl", "/tmp/" + cwdKey},
		{"-tmp-" + strings.ReplaceAll(ghKey, "_", "-"), secretSID + ".jsonl", "/tmp/" + ghKey},
	} {
		dir := filepath.Join(root, "projects", f.dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.file), []byte(line(f.cwd, secretSID)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := filepath.Join(t.TempDir(), "b.json")
	for _, args := range [][]string{{}, {"-f", "json"}, {"-f", "sarif"}, {"-f", "github"}, {"--write-baseline", base}, {"--baseline", base}} {
		var stdout, stderr bytes.Buffer
		code := Main(append(append([]string{"--no-config"}, args...), root), strings.NewReader(""), &stdout, &stderr)
		out := stdout.String() + stderr.String()
		for i, k := range []string{name, cwdKey, ghKey} {
			if strings.Contains(out, k[5:]) {
				t.Errorf("%v shows key %d", args, i)
			}
		}
		switch {
		case len(args) == 0:
			if !strings.Contains(out, "/-tmp-********************/") || !strings.Contains(out, `    1 | {"cwd":"/tmp/****`) {
				t.Errorf("want the masked folder and a snippet of its file:\n%s", strings.NewReplacer(name, "<key 0>", cwdKey, "<key 1>").Replace(out))
			}
		case args[0] == "--baseline":
			if code != ExitOK || !strings.Contains(out, "0 errors") {
				t.Errorf("the baseline does not hide the findings: exit %d:\n%s", code, strings.NewReplacer(name, "<key 0>", cwdKey, "<key 1>").Replace(out))
			}
		}
	}
	if b, _ := os.ReadFile(base); strings.Contains(string(b), name[5:]) || strings.Contains(string(b), cwdKey[5:]) || strings.Contains(string(b), ghKey[5:]) {
		t.Error("the baseline holds a key")
	}
	// Other commands that name the files: redact's plan, an error, the
	// runs of backups listed and undone.
	inKeyFolder := filepath.Join(root, "projects", "-tmp-"+cwdKey, secretSID+".jsonl")
	bk := t.TempDir()
	for _, args := range [][]string{{"redact", root}, {"request", inKeyFolder}, {"resume", "--check", inKeyFolder},
		{"redact", "--write", "--force", "--backup-dir", bk, root}, {"redact", "--list-backups", "--backup-dir", bk},
		{"redact", "--undo", "--backup-dir", bk}} {
		var stdout, stderr bytes.Buffer
		Main(args, strings.NewReader(""), &stdout, &stderr)
		if out := stdout.String() + stderr.String(); strings.Contains(out, cwdKey[5:]) || strings.Contains(out, ghKey[5:]) || !strings.Contains(out, "-tmp-****") {
			t.Errorf("%v shows the key, or no masked folder:\n%s", args[0], strings.NewReplacer(cwdKey, "<key 1>", ghKey[5:], "<key 2>").Replace(out))
		}
	}
	for _, args := range [][]string{{"sessions", root}, {"sessions", "-f", "json", root}, {"stats", root}} {
		var stdout, stderr bytes.Buffer
		Main(args, strings.NewReader(""), &stdout, &stderr)
		// The session table shows an id's first 8 characters: name, a
		// key, is the session id of the file named after it.
		if out := stdout.String() + stderr.String(); strings.Contains(out, cwdKey[5:]) || strings.Contains(out, ghKey[5:]) || strings.Contains(out, name[:8]) {
			t.Errorf("%v shows a key:\n%s", args, strings.NewReplacer(cwdKey, "<key 1>", ghKey[5:], "<key 2>", name[:8], "<key 0>").Replace(out))
		}
	}
}

// A message quotes a value cut to 40 or 60 characters, and stats lists a
// version or a type followed by a colon: the mask the message got later
// no longer found a key cut in two (an Anthropic key is 108 characters),
// nor one the rule finds only as the file holds it (after a credential's
// name, "apiErrorStatus": "…"; before a quote, not a colon). Each value is
// masked on its own, as the file holds it, before it is cut.
func TestQuotedValuesMaskSecrets(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	g := secrettest.New(43)
	typ, ts, version, named := g.Anthropic(), g.Anthropic(), g.Anthropic(), g.Generic()
	line := reviewLine
	text := line("5ec7e700-0000-4000-8000-000000000501", map[string]any{"type": typ}) +
		line("5ec7e700-0000-4000-8000-000000000502", map[string]any{"timestamp": ts}) +
		line("5ec7e700-0000-4000-8000-000000000503", map[string]any{"version": version}) +
		line("5ec7e700-0000-4000-8000-000000000504", map[string]any{"type": "assistant", "requestId": "req_1", "apiErrorStatus": named,
			"message": map[string]any{"model": "claude-opus-4-5-20251101", "id": "msg_1", "type": "message", "role": "assistant",
				"content": []any{map[string]any{"type": "text", "text": "ok"}}, "stop_reason": "end_turn", "stop_sequence": nil,
				"usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}})
	path := filepath.Join(t.TempDir(), secretSID+".jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--no-config", "--no-snippet"}, {"--no-config", "-f", "json"}, {"stats"}} {
		var stdout, stderr bytes.Buffer
		Main(append(args, path), strings.NewReader(""), &stdout, &stderr)
		out := stdout.String() + stderr.String()
		for i, k := range []string{typ, ts, version, named} {
			for at := 14; at+16 <= len(k); at += 16 {
				if strings.Contains(out, k[at:at+16]) {
					t.Errorf("%v shows part of key %d (at %d)", args, i, at)
					break
				}
			}
		}
		if args[0] == "--no-config" && args[1] == "--no-snippet" && (!strings.Contains(out, `, got "****`) || !strings.Contains(out, `unknown entry type "****`) ||
			!strings.Contains(out, `got string "****`)) {
			t.Errorf("want masked values in the messages:\n%s", strings.NewReplacer(typ, "<key 0>", ts, "<key 1>", version, "<key 2>", named, "<key 3>").Replace(out))
		}
	}
}

// An Anthropic key is found only before a quote, a space or a ';': in a
// path, before a '/' or a ".jsonl", the mask found none. Each name of a
// path is masked on its own, also without its extension, in every
// command that prints one.
func TestPathNamesMaskAnthropicKeys(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	g := secrettest.New(47)
	file, folder := g.Anthropic(), g.Anthropic()
	root := t.TempDir()
	b := []byte(reviewLine("5ec7e700-0000-4000-8000-000000000601", nil))
	paths := []string{filepath.Join(root, "projects", "-tmp-app", file+".jsonl"), filepath.Join(root, "projects", "-tmp-"+folder, secretSID+".jsonl")}
	for _, p := range paths {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs := [][]string{{"--no-config", root}, {"--no-config", "-f", "json", root}, {"--no-config", "-f", "sarif", root},
		{"sessions", "--format", "json", root}, {"sessions", "--paths", root}, {"fix", root}, {"fix", "-f", "json", root}}
	for _, p := range paths {
		runs = append(runs, []string{"resume", p}, []string{"resume", "--format", "json", p}, []string{"resume", "--check", p}, []string{"request", p})
	}
	for _, args := range runs {
		var stdout, stderr bytes.Buffer
		Main(args, strings.NewReader(""), &stdout, &stderr)
		out := stdout.String() + stderr.String()
		for i, k := range []string{file, folder} {
			for at := 14; at+16 <= len(k); at += 16 {
				if strings.Contains(out, k[at:at+16]) {
					t.Errorf("%v shows part of key %d", args[:len(args)-1], i)
					break
				}
			}
		}
	}
}

// reviewLine is a JSON line (newline included) of a healthy 2.1.110 user
// entry uuid of session secretSID in /tmp/app, with the members of set
// put over its own.
func reviewLine(uuid string, set map[string]any) string {
	e := map[string]any{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/tmp/app",
		"sessionId": secretSID, "version": "2.1.110", "gitBranch": "", "type": "user", "uuid": uuid,
		"timestamp": "2026-11-20T10:00:00.000Z", "message": map[string]any{"role": "user", "content": "hi"}}
	for k, v := range set {
		e[k] = v
	}
	b, _ := json.Marshal(e)
	return string(b) + "\n"
}
