package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// oracleTestdata holds scrubbed sessions written by the real Claude Code
// 2.1.330 (see its README).
var oracleTestdata = filepath.Join("..", "..", "testdata", "oracle", "2.1.330")

// TestOracleTestdata: what the real Claude Code writes in ordinary sessions
// (every version folder of testdata/oracle) gets no finding, also with
// --strict; the ledger rebuilds.
func TestOracleTestdata(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	versions, err := filepath.Glob(filepath.Join(filepath.Dir(oracleTestdata), "2.*"))
	if err != nil || len(versions) < 2 {
		t.Fatalf("version folders %v: %v", versions, err)
	}
	for _, v := range versions {
		scenarios, err := os.ReadDir(v)
		if err != nil {
			t.Fatal(err)
		}
		if len(scenarios) < 10 {
			t.Fatalf("%s: only %d scenarios", v, len(scenarios))
		}
		for _, s := range scenarios {
			dir := filepath.Join(v, s.Name())
			out, _, code := runJSON(t, "--strict", "--fail-on", "note", dir)
			if code != ExitOK || len(out.Findings) > 0 {
				t.Errorf("%s/%s: exit %d, findings %+v", filepath.Base(v), s.Name(), code, out.Findings)
			}
		}
	}
	// The forked session names requests of the session it was forked from.
	fork := filepath.Join(oracleTestdata, "fork", "projects", "-work-oracle-out-2-1-330-fork-work")
	stdout, stderr, code := run(t, "", "request", filepath.Join(fork, "63a635be-aa71-41f9-80e4-8d8ca67697b7.jsonl"))
	if code != ExitOK || len(stdout) < 100 {
		t.Errorf("request: exit %d: %s", code, stderr)
	}
}

// TestOracleLedgerDamage removes one api-request line from the session a
// fork came from: every line that names it is reported, at that line.
func TestOracleLedgerDamage(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	const gone = "cb04ce50-b88e-45a4-878a-cb7adb4b76c0"
	src := filepath.Join(oracleTestdata, "fork", "projects", "-work-oracle-out-2-1-330-fork-work")
	dst := filepath.Join(t.TempDir(), "projects", "-work-oracle-out-2-1-330-fork-work")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{} // "file:line:rule"
	for _, name := range []string{"111637b6-164a-45a9-b5e5-85b41333a431.jsonl", "63a635be-aa71-41f9-80e4-8d8ca67697b7.jsonl"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, l := range strings.SplitAfter(string(data), "\n") {
			if l == "" {
				continue
			}
			if strings.Contains(l, `"type":"api-request"`) && strings.Contains(l, `"id":"`+gone+`"`) {
				continue // the damage
			}
			kept = append(kept, l)
			n := strconv.Itoa(len(kept))
			switch {
			case strings.Contains(l, `"requestRef":"`+gone+`"`):
				want[name+":"+n+":ledger-dangling-request-ref"] = true
			case strings.Contains(l, `"base":"`+gone+`"`):
				want[name+":"+n+":ledger-dangling-base"] = true
			}
		}
		if err := os.WriteFile(filepath.Join(dst, name), []byte(strings.Join(kept, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(want) < 2 {
		t.Fatalf("the damage touches too little: %v", want)
	}
	out, _, _ := runJSON(t, dst)
	got := map[string]bool{}
	for _, f := range out.Findings {
		got[filepath.Base(f.Path)+":"+strconv.Itoa(f.Line)+":"+f.Rule] = true
		if f.Severity == "error" {
			t.Errorf("ledger damage is not an error (the resume does not read the ledger): %+v", f)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("missing finding %s; got %v", k, got)
		}
	}
}

// TestOracleForkAlone: the transcript of a real 2.1.330 fork, read alone
// (standard input, or copied out of its projects/ folder), names requests
// that live in the transcript it was forked from. Nothing is damaged: no
// warning or error, only a note per entry saying where its request is.
func TestOracleForkAlone(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	const name = "63a635be-aa71-41f9-80e4-8d8ca67697b7.jsonl"
	data, err := os.ReadFile(filepath.Join(oracleTestdata, "fork", "projects", "-work-oracle-out-2-1-330-fork-work", name))
	if err != nil {
		t.Fatal(err)
	}
	loose := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(loose, data, 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(what string, out jsonOut) {
		t.Helper()
		notes := 0
		for _, f := range out.Findings {
			if f.Severity != "note" {
				t.Errorf("%s: %s %s at line %d: %s", what, f.Severity, f.Rule, f.Line, f.Message)
			} else if f.Rule == "ledger-dangling-request-ref" {
				notes++
			}
		}
		if notes == 0 {
			t.Errorf("%s: no note says where the forked entries' requests are", what)
		}
	}
	out, _, _ := runJSON(t, "--strict", loose)
	check("copied alone", out)
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"--format", "json", "--strict", "-"}, bytes.NewReader(data), &stdout, &stderr); code != ExitOK {
		t.Fatalf("stdin: exit %d: %s", code, stderr.String())
	}
	var sout jsonOut
	if err := json.Unmarshal(stdout.Bytes(), &sout); err != nil {
		t.Fatal(err)
	}
	check("standard input", sout)
}
