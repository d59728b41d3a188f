//go:build unix

package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Scenario is one scripted use of Claude Code, played in a fresh Env.
type Scenario struct {
	Name string
	Doc  string
	// Expect lists the rules ccvet must report (a scenario that damages the
	// session on purpose, e.g. a run killed mid-tool); Allow the rules it
	// may report. A scenario with neither is healthy: no error, no warning.
	Expect []string
	Allow  []string
	Play   func(ctx context.Context, e *Env) error
}

// ok fails a run that did not exit 0 or reported an error.
func ok(r RunRecord, err error) (RunRecord, error) {
	if err != nil {
		return r, err
	}
	if r.Exit != 0 || r.TimedOut || r.IsError {
		return r, fmt.Errorf("claude %s: exit %d timedOut=%v isError=%v result=%q stderr=%q stdout=%q",
			strings.Join(r.Args, " "), r.Exit, r.TimedOut, r.IsError, r.Result, r.Stderr, r.Stdout)
	}
	return r, nil
}

// session returns the session id of a run: from its JSON result, else the
// newest transcript under Root.
func (e *Env) session(r RunRecord) (string, error) {
	if r.SessionID != "" {
		return r.SessionID, nil
	}
	var newest string
	var t time.Time
	for _, p := range e.SessionFiles() {
		if st, err := os.Stat(p); err == nil && st.ModTime().After(t) {
			newest, t = p, st.ModTime()
		}
	}
	if newest == "" {
		return "", fmt.Errorf("no session file under %s", e.Root)
	}
	return strings.TrimSuffix(filepath.Base(newest), ".jsonl"), nil
}

func (e *Env) play(ctx context.Context, prompt string, args ...string) (string, error) {
	r, err := ok(e.Run(ctx, RunOpts{Prompt: prompt, Args: args}))
	if err != nil {
		return "", err
	}
	return e.session(r)
}

// Scenarios are the ordinary sessions every version is played through.
func Scenarios() []Scenario {
	return []Scenario{
		{Name: "plain", Doc: "one prompt, one text reply",
			Play: func(ctx context.Context, e *Env) error {
				_, err := e.play(ctx, Prompt("Say hello.", Text("Hello from the oracle.")))
				return err
			}},
		{Name: "tool", Doc: "one Bash call, then a text reply",
			Play: func(ctx context.Context, e *Env) error {
				_, err := e.play(ctx, Prompt("Run a command.", Call(Bash("echo oracle-tool")), Text("The command printed oracle-tool.")))
				return err
			}},
		{Name: "parallel", Doc: "three tool calls in one reply (two Bash, one Write), then a text reply",
			Play: func(ctx context.Context, e *Env) error {
				_, err := e.play(ctx, Prompt("Run three things at once.",
					Call(Bash("echo one"), Bash("echo two"),
						Tool{Name: "Write", Input: map[string]any{"file_path": filepath.Join(e.Work, "p.txt"), "content": "parallel\n"}}),
					Text("All three done.")))
				return err
			}},
		{Name: "write-edit", Doc: "Write a file, Read it, Edit it, then a text reply",
			Play: func(ctx context.Context, e *Env) error {
				f := filepath.Join(e.Work, "notes.txt")
				_, err := e.play(ctx, Prompt("Write then edit a file.",
					Call(Tool{Name: "Write", Input: map[string]any{"file_path": f, "content": "alpha\nbeta\n"}}),
					Call(Tool{Name: "Read", Input: map[string]any{"file_path": f}}),
					Call(Tool{Name: "Edit", Input: map[string]any{"file_path": f, "old_string": "beta", "new_string": "gamma"}}),
					Text("The file now says alpha, gamma.")))
				return err
			}},
		{Name: "subagent", Doc: "an Agent (Task on old versions) call; the subagent runs Bash and answers; then a text reply",
			Play: func(ctx context.Context, e *Env) error {
				_, err := e.play(ctx, Prompt("Delegate to a subagent.",
					Call(Subagent(Call(Bash("echo from-subagent")), Text("Subagent result: from-subagent."))),
					Text("The subagent reported back.")))
				return err
			}},
		{Name: "todo", Doc: "a TodoWrite call (reaches todos/ on versions that write it), then a text reply",
			Play: func(ctx context.Context, e *Env) error {
				_, err := e.play(ctx, Prompt("Plan the work.",
					Call(Tool{Name: "TodoWrite", Input: map[string]any{"todos": []any{
						map[string]any{"content": "first task", "status": "in_progress", "activeForm": "Doing the first task", "id": "1", "priority": "high"},
						map[string]any{"content": "second task", "status": "pending", "activeForm": "Doing the second task", "id": "2", "priority": "low"},
					}}}),
					Text("Planned two tasks.")))
				return err
			}},
		{Name: "resume", Doc: "a Bash call session, then --resume ID with a second prompt that calls Bash again",
			Play: func(ctx context.Context, e *Env) error {
				id, err := e.play(ctx, Prompt("First turn.", Call(Bash("echo first")), Text("First turn done.")))
				if err != nil {
					return err
				}
				_, err = e.play(ctx, Prompt("Second turn.", Call(Bash("echo second")), Text("Second turn done.")), "--resume", id)
				return err
			}},
		{Name: "fork", Doc: "a session, then --resume ID --fork-session with a second prompt (a new session file)",
			Play: func(ctx context.Context, e *Env) error {
				id, err := e.play(ctx, Prompt("Original.", Call(Bash("echo original")), Text("Original done.")))
				if err != nil {
					return err
				}
				_, err = e.play(ctx, Prompt("Forked turn.", Text("Forked reply.")), "--resume", id, "--fork-session")
				return err
			}},
		{Name: "continue", Doc: "a session, then --continue with a second prompt",
			Play: func(ctx context.Context, e *Env) error {
				if _, err := e.play(ctx, Prompt("Before.", Call(Bash("echo before")), Text("Before done."))); err != nil {
					return err
				}
				_, err := e.play(ctx, Prompt("Continued.", Text("Continued reply.")), "--continue")
				return err
			}},
		{Name: "compact", Doc: "a tool session, then --resume ID with /compact, then --resume ID with a prompt after the boundary",
			Play: func(ctx context.Context, e *Env) error {
				id, err := e.play(ctx, Prompt("Work before compaction.", Call(Bash("echo pre-compact")), Text("Pre-compact done.")))
				if err != nil {
					return err
				}
				if _, err := e.play(ctx, "/compact", "--resume", id); err != nil {
					return err
				}
				_, err = e.play(ctx, Prompt("After compaction.", Call(Bash("echo post-compact")), Text("Post-compact done.")), "--resume", id)
				return err
			}},
		{Name: "killed", Expect: []string{"unmatched-tool-use"}, Doc: "a long Bash call (a 60 s loop of sleep 1) killed with SIGKILL while it runs (the file ends on the unanswered tool_use)",
			Play: func(ctx context.Context, e *Env) error {
				_, err := e.playKilled(ctx)
				return err
			}},
		{Name: "killed-resumed", Allow: []string{"unmatched-tool-use"}, Doc: "killed, then --resume ID with a text prompt (2.1.330 appends a synthetic error result; older versions leave the call unanswered)",
			Play: func(ctx context.Context, e *Env) error {
				id, err := e.playKilled(ctx)
				if err != nil {
					return err
				}
				_, err = e.play(ctx, Prompt("After the crash.", Text("Oracle recovered after the crash.")), "--resume", id)
				return err
			}},
		{Name: "large", Doc: "four replies of 1.6 MB text each with a Bash call (the transcript crosses 5 MiB), then --resume ID",
			Play: func(ctx context.Context, e *Env) error {
				var steps []Step
				for i := range 4 {
					steps = append(steps, Step{Text: fmt.Sprintf("Big reply %d.", i), Pad: 1600 << 10, Tools: []Tool{Bash(fmt.Sprintf("echo big-%d", i))}})
				}
				steps = append(steps, Text("Big session done."))
				id, err := e.play(ctx, Prompt("Grow the session.", steps...))
				if err != nil {
					return err
				}
				if f := e.SessionFile(id); f != "" {
					if st, err := os.Stat(f); err == nil && st.Size() < 5<<20 {
						return fmt.Errorf("large: transcript is only %d bytes", st.Size())
					}
				}
				_, err = e.play(ctx, Prompt("After the big turn.", Text("Resumed the big session.")), "--resume", id)
				return err
			}},
		{Name: "api-retry", Doc: "the stand-in answers 529 overloaded twice, then a Bash call: Claude Code retries (2.1.330+ write an api_error system entry per retry), then a text reply",
			Play: func(ctx context.Context, e *Env) error {
				_, err := e.play(ctx, Prompt("Retry.", Step{Tools: []Tool{Bash("echo after-retry")}, Status: 529, Fail: 2}, Text("Done after the retries.")))
				return err
			}},
		{Name: "api-error", Doc: "the stand-in answers 400 to every try (2.1.332 makes six, some with fewer tools): the run ends on Claude Code's synthetic API error entry; then --resume ID with a text prompt",
			Play: func(ctx context.Context, e *Env) error {
				r, err := e.Run(ctx, RunOpts{Prompt: Prompt("Fail.", Step{Text: "never sent", Status: 400, Fail: 20})})
				if err != nil {
					return err
				}
				if r.Exit == 0 && !r.IsError {
					return fmt.Errorf("api-error: the run did not fail: %q", r.Result)
				}
				id, err := e.session(r)
				if err != nil {
					return err
				}
				e.Server.StopFailing()
				_, err = e.play(ctx, Prompt("After the error.", Text("Recovered after the API error.")), "--resume", id)
				return err
			}},
		{Name: "max-tokens", Doc: "a reply cut at max_tokens, then a text reply (2.1.332 adds a meta note and asks again; 2.0.76 ends the run on an API error entry)",
			Play: func(ctx context.Context, e *Env) error {
				// 2.0.76 ends the run on an API error entry instead.
				r, err := e.Run(ctx, RunOpts{Prompt: Prompt("Cut.", Step{Text: "Cut in the mid", Stop: "max_tokens"}, Text("Continued after the cut."))})
				if err != nil {
					return err
				}
				_, err = e.session(r)
				return err
			}},
		{Name: "hooks", Doc: "hooks in the data root's settings.json (SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop running echo), a Bash call, a text reply",
			Play: func(ctx context.Context, e *Env) error {
				var hs []string
				for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"} {
					hs = append(hs, fmt.Sprintf(`%q: [{"matcher": "*", "hooks": [{"type": "command", "command": "echo oracle-hook-%s"}]}]`, ev, ev))
				}
				if err := os.WriteFile(filepath.Join(e.Root, "settings.json"), []byte(`{"hooks": {`+strings.Join(hs, ", ")+"}}\n"), 0o644); err != nil {
					return err
				}
				_, err := e.play(ctx, Prompt("Hooks.", Call(Bash("echo hooked")), Text("Hooks done.")))
				return err
			}},
		{Name: "mcp", Doc: "a call to the tool of an MCP stdio server (a python3 script, --mcp-config), then a text reply",
			Play: func(ctx context.Context, e *Env) error {
				py := filepath.Join(e.Work, "oracle-mcp.py")
				if err := os.WriteFile(py, []byte(mcpServer), 0o644); err != nil {
					return err
				}
				cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"oracle": map[string]any{"command": "python3", "args": []string{py}}}})
				path := filepath.Join(e.Work, "oracle-mcp.json")
				if err := os.WriteFile(path, cfg, 0o644); err != nil {
					return err
				}
				_, err := e.play(ctx, Prompt("MCP.", Call(Tool{Name: "mcp__oracle__echo", Input: map[string]any{"text": "oracle-mcp"}}), Text("MCP done.")),
					"--mcp-config", path, "--allowedTools=mcp__oracle__echo")
				return err
			}},
		{Name: "interactive", Doc: "an interactive session under a pseudo-terminal (python3 pty): Write then Edit a new file, Edit an existing one, then /exit (reaches history.jsonl and file-history/)",
			Play: func(ctx context.Context, e *Env) error {
				if err := e.SeedInteractive(); err != nil {
					return err
				}
				f := filepath.Join(e.Work, "notes.txt")
				old := filepath.Join(e.Work, "existing.txt")
				if err := os.WriteFile(old, []byte("one\ntwo\n"), 0o644); err != nil {
					return err
				}
				prompt := Prompt("Write then edit a file.",
					Call(Tool{Name: "Write", Input: map[string]any{"file_path": f, "content": "alpha\nbeta\n"}}),
					Call(Tool{Name: "Edit", Input: map[string]any{"file_path": f, "old_string": "beta", "new_string": "gamma"}}),
					Call(Tool{Name: "Read", Input: map[string]any{"file_path": old}}),
					Call(Tool{Name: "Edit", Input: map[string]any{"file_path": old, "old_string": "two", "new_string": "three"}}),
					Text("OracleFinished: the files are edited."))
				prompt = strings.ReplaceAll(prompt, "\n", " ")
				done := filepath.Join(e.Tmp, "oracle-finished")
				e.MarkWhenAnswered("OracleFinished", done)
				_, err := e.RunPTY(ctx, []Key{{Wait: 20, Until: []string{"for shortcuts", "❯"}}, {Wait: 1}, {Send: prompt}, {Wait: 1}, {Send: "\r"},
					{Wait: 30, UntilFile: done}, {Wait: 2}, {Send: "/exit"}, {Wait: 1}, {Send: "\r"}, {Wait: 3}})
				if err != nil {
					return err
				}
				if len(e.SessionFiles()) == 0 {
					return fmt.Errorf("interactive: no session written (see pty-*.log)")
				}
				return nil
			}},
	}
}

// playKilled runs a long Bash call and kills Claude Code (SIGKILL to its
// process group) two seconds after the stand-in has sent the call.
func (e *Env) playKilled(ctx context.Context) (string, error) {
	var since time.Time
	kill := func() bool {
		for _, r := range e.Server.Requests() {
			if r.Kind == "main" && strings.Contains(string(r.Reply), "slow-oracle-step") {
				if since.IsZero() {
					since = time.Now()
				}
				return time.Since(since) > 2*time.Second
			}
		}
		return false
	}
	r, err := e.Run(ctx, RunOpts{Prompt: Prompt("Run something slow.", Call(Bash("for i in $(seq 1 60); do sleep 1; done; echo slow-oracle-step")), Text("Slow done.")), KillWhen: kill})
	if err != nil {
		return "", err
	}
	if !r.Killed {
		return "", fmt.Errorf("the run was not killed: exit %d stderr %q", r.Exit, r.Stderr)
	}
	return e.session(RunRecord{})
}

// Lookup returns the scenario of that name.
func Lookup(name string) (Scenario, bool) {
	for _, s := range Scenarios() {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// Generate plays a scenario with version v into dir (dir/root is the data
// root, dir/requests.jsonl the stand-in's log, dir/runs.json the runs).
func Generate(ctx context.Context, v, bin string, sc Scenario, dir string) (*Env, error) {
	srv, err := NewServer()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	e, err := NewEnv(v, bin, dir, srv)
	if err != nil {
		return nil, err
	}
	if err := srv.LogTo(filepath.Join(e.Dir, "requests.jsonl")); err != nil {
		return nil, err
	}
	perr := sc.Play(ctx, e)
	b, _ := json.MarshalIndent(map[string]any{"version": v, "scenario": sc.Name, "doc": sc.Doc,
		"healthy": sc.Healthy(), "runs": e.Runs, "error": errString(perr)}, "", "  ")
	_ = os.WriteFile(filepath.Join(e.Dir, "runs.json"), append(b, '\n'), 0o644)
	return e, perr
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Healthy reports whether nothing went wrong in the scenario.
func (s Scenario) Healthy() bool { return len(s.Expect) == 0 && len(s.Allow) == 0 }

// mcpServer is a minimal MCP server over stdio (newline-delimited JSON-RPC):
// one tool, echo, that answers "echoed: TEXT".
const mcpServer = `import sys, json
for line in sys.stdin:
    if not line.strip():
        continue
    m = json.loads(line)
    mid, meth = m.get("id"), m.get("method")
    if mid is None:
        continue
    if meth == "initialize":
        r = {"protocolVersion": m["params"].get("protocolVersion", "2024-11-05"), "capabilities": {"tools": {}}, "serverInfo": {"name": "oracle", "version": "1.0"}}
    elif meth == "tools/list":
        r = {"tools": [{"name": "echo", "description": "Echo text.", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}]}
    elif meth == "tools/call":
        r = {"content": [{"type": "text", "text": "echoed: " + m["params"]["arguments"].get("text", "")}]}
    else:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "method not found"}}) + "\n")
        sys.stdout.flush()
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": r}) + "\n")
    sys.stdout.flush()
`
