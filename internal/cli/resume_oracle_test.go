//go:build unix

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/oracle"
	"github.com/ccvet/ccvet/internal/resume"
)

// TestResumeAgreesWithRealReader damages sessions written by the real Claude
// Code, resumes them with it against the stand-in API, and checks that
// `ccvet resume --reader-version V --format json` predicts the messages the
// real reader sent: roles, block types, tool ids, their order, and so the
// number of assistant messages. Text is compared only as "some text" (its
// words are the program's own at run time: reminders, the new prompt).
//
// It runs the real program, so it is gated like the oracle's tests
// (CCVET_ORACLE=1). Versions: 2.1.330, 2.1.110 and the newest published
// (CCVET_ORACLE_VERSIONS overrides). The oracle's corruption matrix is
// TestResumeAgreesOnTheMatrix; this one plays every healthy scenario and
// damages of its own on the parallel and write-edit sessions.
func TestResumeAgreesWithRealReader(t *testing.T) {
	ctx, tally := startAgreement(t)
	srv := oracle.TestServer(t)
	// The damaged copies are tried on these scenarios; the others only healthy.
	damaged := map[string]bool{"parallel": true, "write-edit": true}
	wanted := map[string]bool{"plain": true, "tool": true, "parallel": true, "write-edit": true, "subagent": true,
		"resume": true, "continue": true, "compact": true}
	for v, bin := range oracle.InstallEach(ctx, t, tally.versions) {
		for _, sc := range oracle.Scenarios() {
			if !wanted[sc.Name] {
				continue
			}
			env, err := oracle.Generate(ctx, v, bin, sc, filepath.Join(t.TempDir(), sc.Name))
			if err != nil {
				t.Errorf("%s %s: %v", v, sc.Name, err)
				continue
			}
			env.Server = srv // Generate's own stand-in is closed by now
			files := env.SessionFiles()
			if len(files) == 0 {
				t.Errorf("%s %s: no session file", v, sc.Name)
				continue
			}
			path := newestFile(files)
			healthy, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
			for _, c := range corruptions() {
				if c.name != "healthy" && !damaged[sc.Name] {
					continue
				}
				data, ok := c.apply(splitLines(healthy))
				if !ok {
					continue
				}
				name := sc.Name + "/" + c.name
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				pred := predictResume(t, v, path, resumeSignature)
				rec, reqs, err := env.Resume(ctx, id, resumePrompt, 90*time.Second)
				if err != nil {
					t.Errorf("%s/%s: %v", v, name, err)
					continue
				}
				real := "FAILED"
				for _, r := range reqs {
					if r.Kind != "main" {
						continue
					}
					msgs, err := r.Messages()
					if err != nil {
						t.Fatal(err)
					}
					real = signatureFor(msgs, resumePrompt)
					break
				}
				if real == "FAILED" && rec.Exit == 0 {
					real = "NO REQUEST (exit 0)"
				}
				why := ""
				if real == "FAILED" {
					why = fmt.Sprintf(" (exit %d: %q %q)", rec.Exit, rec.Stderr, rec.Result)
				}
				tally.check(t, v, name, real, why, pred)
				if err := os.WriteFile(path, healthy, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	tally.log(t, "")
}

const resumePrompt = "Resume check: reply briefly."

// agreementVersions are the reader versions the agreement tests cover.
func agreementVersions(ctx context.Context, t *testing.T) []string {
	if v := os.Getenv("CCVET_ORACLE_VERSIONS"); v != "" {
		return strings.Split(v, ",")
	}
	versions := []string{"2.1.330", "2.1.110"}
	if n, err := oracle.Newest(ctx); err == nil && !contains(versions, n) {
		versions = append(versions, n)
	} else if err != nil {
		t.Logf("newest version not known (%v): checking %v", err, versions)
	}
	return versions
}

// TestResumeAgreesOnTheMatrix applies every case of the oracle's corruption
// matrix to the real program's sessions, resumes each with it, and compares
// the messages sent with what ccvet resume predicts (see
// TestResumeAgreesWithRealReader).
func TestResumeAgreesOnTheMatrix(t *testing.T) {
	ctx, tally := startAgreement(t)
	prompt := oracle.ResumePrompt
	for _, v := range tally.versions {
		m := oracle.NewMatrix(t.TempDir())
		for _, c := range oracle.Corruptions() {
			if !oracle.Selected(c.ID) {
				continue
			}
			b, data, err := m.Damaged(ctx, v, c.ID)
			if errors.Is(err, oracle.ErrNotApplicable) {
				continue
			}
			if err != nil {
				t.Errorf("%s %s: %v", v, c.ID, err)
				continue
			}
			copyPath := filepath.Join(t.TempDir(), filepath.Base(b.File))
			if err := os.WriteFile(copyPath, data, 0o644); err != nil {
				t.Fatal(err)
			}
			pred := predictResume(t, v, copyPath, resumeSignature)
			r, err := b.Resume(ctx, data, prompt)
			if err != nil {
				t.Errorf("%s %s: %v", v, c.ID, err)
				continue
			}
			real, why := sentSignature(t, r, func(msgs []oracle.Message) string { return signatureFor(msgs, prompt) })
			tally.check(t, v, c.ID, real, why, pred)
			if pv, ok := resume.ParseVersion(v); ok && !pv.Less(resume.Newest) {
				// The default reader is today's: it must predict this version too.
				if def := predictResume(t, "", copyPath, resumeSignature); def != real {
					t.Errorf("%s/%s: ccvet resume (default reader) and the real reader disagree\n real: %s%s\n ccvet: %s", v, c.ID, real, why, def)
				}
			}
		}
	}
	tally.log(t, "matrix, ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func newestFile(files []string) string {
	best, bt := files[0], time.Time{}
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.ModTime().After(bt) {
			best, bt = f, st.ModTime()
		}
	}
	return best
}

// An agreement counts, per reader version, the cases compared and those
// on which ccvet resume predicts what the real reader sent.
type agreement struct {
	versions        []string
	compared, equal map[string]int
}

// startAgreement skips t unless the oracle is enabled, and returns the
// tally of the reader versions the agreement tests cover.
func startAgreement(t *testing.T) (context.Context, *agreement) {
	t.Helper()
	oracle.Require(t)
	ctx := context.Background()
	return ctx, &agreement{versions: agreementVersions(ctx, t), compared: map[string]int{}, equal: map[string]int{}}
}

// check compares what the real reader of v sent on case name (why: how it
// failed, when it did) with ccvet's prediction, and reports a difference.
func (a *agreement) check(t *testing.T, v, name, real, why, pred string) bool {
	t.Helper()
	a.compared[v]++
	if real == pred {
		a.equal[v]++
		return true
	}
	t.Errorf("%s/%s: ccvet resume and the real reader disagree\n real: %s%s\n ccvet: %s", v, name, real, why, pred)
	return false
}

// log says the counts of each version, what naming the cases.
func (a *agreement) log(t *testing.T, what string) {
	for _, v := range a.versions {
		t.Logf("%sreader %s: %d cases compared, %d equal", what, v, a.compared[v], a.equal[v])
	}
}

// sentSignature is sig of the messages of the resume's main request, or
// "FAILED" and why when it sent none.
func sentSignature(t *testing.T, r oracle.Resumed, sig func([]oracle.Message) string) (real, why string) {
	t.Helper()
	q, ok := r.Main()
	if !ok {
		return "FAILED", fmt.Sprintf(" (exit %d: %q %q)", r.Run.Exit, r.Run.Stderr, r.Run.Result)
	}
	msgs, err := q.Messages()
	if err != nil {
		t.Fatal(err)
	}
	return sig(msgs), ""
}

// predictResume runs ccvet resume on path for reader v ("" for the
// default, today's reader) and returns sig of the messages it predicts
// ("FAILED" when it predicts no request).
func predictResume(t *testing.T, v, path string, sig func([]oracle.Message) string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := []string{"resume", "--format", "json", path}
	if v != "" { // "": the default, today's reader
		args = append([]string{"resume", "--reader-version", v}, args[1:]...)
	}
	if code := Main(args, strings.NewReader(""), &stdout, &stderr); code != ExitOK {
		t.Fatalf("ccvet resume %s: exit %d: %s", path, code, stderr.String())
	}
	var doc struct {
		Failed   string           `json:"failed"`
		Messages []oracle.Message `json:"messages"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("ccvet resume JSON: %v", err)
	}
	if doc.Failed != "" {
		return "FAILED"
	}
	return sig(doc.Messages)
}

// resumeSignature is signatureFor with no prompt to leave out.
func resumeSignature(msgs []oracle.Message) string { return signatureFor(msgs, "") }

// signature is the messages in short: "user[text] assistant[tool_use:ID]
// user[tool_result:ID]". Run-time additions are left out: system messages,
// reminders, and the new prompt at the end of a real request.
func signatureFor(msgs []oracle.Message, prompt string) string {
	type m struct {
		role   string
		blocks []oracle.Block
	}
	var list []m
	for _, x := range msgs {
		if x.Role == "system" {
			continue
		}
		list = append(list, m{x.Role, x.Content})
	}
	if prompt != "" && len(list) > 0 && list[len(list)-1].role == "user" {
		last := &list[len(list)-1]
		var kept []oracle.Block
		for _, b := range last.blocks {
			if b.Type == "text" && strings.TrimSpace(b.Text) == strings.TrimSpace(prompt) {
				continue
			}
			kept = append(kept, b)
		}
		last.blocks = kept
	}
	var out []string
	for _, x := range list {
		var toks []string
		for _, b := range x.blocks {
			switch b.Type {
			case "text":
				if strings.HasPrefix(b.Text, "<system-reminder>") {
					continue
				}
				if len(toks) > 0 && toks[len(toks)-1] == "text" {
					continue
				}
				toks = append(toks, "text")
			case "tool_use", "tool_result":
				toks = append(toks, oracle.ToolToken(b))
			case "thinking", "redacted_thinking":
			default:
				toks = append(toks, b.Type)
			}
		}
		if len(toks) > 0 {
			out = append(out, x.role+"["+strings.Join(toks, ",")+"]")
		}
	}
	return strings.Join(out, " ")
}

// A corruption damages a healthy transcript's lines; ok is false when the
// transcript has nothing it applies to.
type corruption struct {
	name  string
	apply func(lines []string) (data []byte, ok bool)
}

func splitLines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	return strings.Split(s, "\n")
}

func joinLines(lines []string, final bool) []byte {
	var out []string
	for _, l := range lines {
		if l != "\x7f" { // deleted
			out = append(out, l)
		}
	}
	s := strings.Join(out, "\n")
	if final {
		s += "\n"
	}
	return []byte(s)
}

type lineInfo struct {
	Type        string `json:"type"`
	UUID        string `json:"uuid"`
	ParentUUID  string `json:"parentUuid"`
	IsSidechain bool   `json:"isSidechain"`
	Timestamp   string `json:"timestamp"`
	Message     struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

func info(l string) (lineInfo, []oracle.Block) {
	var li lineInfo
	_ = json.Unmarshal([]byte(l), &li)
	var c oracle.Content
	if len(li.Message.Content) > 0 {
		_ = c.UnmarshalJSON(li.Message.Content)
	}
	return li, c
}

// find returns the indexes of main-conversation lines whose blocks hold a block of type typ.
func find(lines []string, typ string) []int {
	var out []int
	for i, l := range lines {
		li, bs := info(l)
		if li.IsSidechain {
			continue
		}
		for _, b := range bs {
			if b.Type == typ {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

func firstID(l, typ string) string {
	_, bs := info(l)
	for _, b := range bs {
		if b.Type == typ {
			if typ == "tool_use" {
				return b.ID
			}
			return b.ToolUseID
		}
	}
	return ""
}

var tsRe = regexp.MustCompile(`"timestamp":"([^"]+)"`)

func corruptions() []corruption {
	return []corruption{
		{"healthy", func(ls []string) ([]byte, bool) { return joinLines(ls, true), true }},
		{"delete-result", func(ls []string) ([]byte, bool) {
			r := find(ls, "tool_result")
			if len(r) == 0 {
				return nil, false
			}
			ls[r[0]] = "\x7f"
			return joinLines(ls, true), true
		}},
		{"trailing-call", func(ls []string) ([]byte, bool) {
			u := find(ls, "tool_use")
			if len(u) == 0 {
				return nil, false
			}
			return joinLines(ls[:u[len(u)-1]+1], true), true
		}},
		{"torn-last-assistant", func(ls []string) ([]byte, bool) {
			a := -1
			for i, l := range ls {
				if li, _ := info(l); li.Type == "assistant" && !li.IsSidechain {
					a = i
				}
			}
			if a < 0 {
				return nil, false
			}
			out := append([]string{}, ls[:a+1]...)
			out[a] = out[a][:len(out[a])/2]
			return joinLines(out, false), true
		}},
		{"duplicate-tool-id", func(ls []string) ([]byte, bool) {
			u := find(ls, "tool_use")
			if len(u) < 2 {
				return nil, false
			}
			first, last := firstID(ls[u[0]], "tool_use"), firstID(ls[u[len(u)-1]], "tool_use")
			if first == "" || last == "" || first == last {
				return nil, false
			}
			for i, l := range ls {
				if strings.Contains(l, last) {
					ls[i] = strings.ReplaceAll(l, last, first)
				}
			}
			return joinLines(ls, true), true
		}},
		{"delete-call", func(ls []string) ([]byte, bool) {
			u := find(ls, "tool_use")
			if len(u) == 0 {
				return nil, false
			}
			ls[u[len(u)-1]] = "\x7f"
			return joinLines(ls, true), true
		}},
		{"delete-call-after-pause", func(ls []string) ([]byte, bool) {
			u := find(ls, "tool_use")
			if len(u) == 0 {
				return nil, false
			}
			at := u[len(u)-1]
			ls[at] = "\x7f"
			for i := at + 1; i < len(ls); i++ {
				ls[i] = tsRe.ReplaceAllStringFunc(ls[i], func(m string) string {
					ts := tsRe.FindStringSubmatch(m)[1]
					t, err := time.Parse(time.RFC3339Nano, ts)
					if err != nil {
						return m
					}
					return `"timestamp":"` + t.Add(time.Minute).UTC().Format("2006-01-02T15:04:05.000Z") + `"`
				})
			}
			return joinLines(ls, true), true
		}},
		{"nul-run", func(ls []string) ([]byte, bool) {
			r := find(ls, "tool_result")
			if len(r) == 0 {
				return nil, false
			}
			ls[r[0]] = strings.Repeat("\x00", len(ls[r[0]]))
			return joinLines(ls, true), true
		}},
		{"broken-json", func(ls []string) ([]byte, bool) {
			r := find(ls, "tool_result")
			if len(r) == 0 {
				return nil, false
			}
			ls[r[0]] = ls[r[0]][:len(ls[r[0]])/2]
			return joinLines(ls, true), true
		}},
		{"result-reparented", func(ls []string) ([]byte, bool) {
			r := find(ls, "tool_result")
			var root string
			for _, l := range ls {
				if li, _ := info(l); li.Type == "user" && !li.IsSidechain && li.ParentUUID == "" && li.UUID != "" {
					root = li.UUID
					break
				}
			}
			if len(r) == 0 || root == "" {
				return nil, false
			}
			li, _ := info(ls[r[len(r)-1]])
			if li.ParentUUID == "" {
				return nil, false
			}
			ls[r[len(r)-1]] = strings.Replace(ls[r[len(r)-1]], `"parentUuid":"`+li.ParentUUID+`"`, `"parentUuid":"`+root+`"`, 1)
			return joinLines(ls, true), true
		}},
		{"result-flushed-early", func(ls []string) ([]byte, bool) {
			r := find(ls, "tool_result")
			u := find(ls, "tool_use")
			if len(r) == 0 || len(u) == 0 || u[len(u)-1] < 2 {
				return nil, false
			}
			res := ls[r[len(r)-1]]
			out := append([]string{}, ls[:r[len(r)-1]]...)
			out = append(out, ls[r[len(r)-1]+1:]...)
			at := u[len(u)-1] - 2
			out = append(out[:at], append([]string{res}, out[at:]...)...)
			return joinLines(out, true), true
		}},
		{"sidechain-leaf", func(ls []string) ([]byte, bool) {
			a := -1
			for i, l := range ls {
				if li, _ := info(l); li.Type == "assistant" && !li.IsSidechain {
					a = i
				}
			}
			if a < 0 || !strings.Contains(ls[a], `"isSidechain":false`) {
				return nil, false
			}
			ls[a] = strings.Replace(ls[a], `"isSidechain":false`, `"isSidechain":true`, 1)
			return joinLines(ls, true), true
		}},
		{"two-torn", func(ls []string) ([]byte, bool) {
			// The first result's line cut in half (its newline kept) and
			// the last line cut in half, no final newline.
			r := find(ls, "tool_result")
			if len(r) == 0 || r[0] == len(ls)-1 {
				return nil, false
			}
			ls[r[0]] = ls[r[0]][:len(ls[r[0]])/2]
			last := len(ls) - 1
			ls[last] = ls[last][:len(ls[last])/2]
			return joinLines(ls, false), true
		}},
		{"ends-on-some-results", func(ls []string) ([]byte, bool) {
			// Cut after the first result line that follows the last
			// assistant line with a call, when that message made more
			// calls than the line answers (a crash while a batch ran).
			u := find(ls, "tool_use")
			if len(u) == 0 {
				return nil, false
			}
			calls := 0
			for _, i := range u {
				if i > u[len(u)-1]-3 {
					_, bs := info(ls[i])
					for _, b := range bs {
						if b.Type == "tool_use" {
							calls++
						}
					}
				}
			}
			for i := u[len(u)-1] + 1; i < len(ls); i++ {
				li, bs := info(ls[i])
				if li.Type != "user" || li.IsSidechain || len(bs) == 0 || bs[0].Type != "tool_result" {
					continue
				}
				if len(bs) >= calls {
					return nil, false
				}
				return joinLines(ls[:i+1], true), true
			}
			return nil, false
		}},
		{"blank-first-prompt", func(ls []string) ([]byte, bool) {
			// The first prompt's content made one text block of spaces.
			for i, l := range ls {
				li, _ := info(l)
				if li.Type != "user" || li.IsSidechain || len(li.Message.Content) == 0 || li.Message.Content[0] != '"' {
					continue
				}
				ls[i] = strings.Replace(l, `"content":`+string(li.Message.Content), `"content":[{"type":"text","text":"   "}]`, 1)
				return joinLines(ls, true), ls[i] != l
			}
			return nil, false
		}},
		{"meta-note-end", func(ls []string) ([]byte, bool) {
			// A meta user note appended after the last entry of the
			// conversation, parented to it.
			last := -1
			for i, l := range ls {
				if li, _ := info(l); (li.Type == "user" || li.Type == "assistant") && !li.IsSidechain && li.UUID != "" {
					last = i
				}
			}
			if last < 0 {
				return nil, false
			}
			li, _ := info(ls[last])
			note := strings.Replace(ls[last], `"uuid":"`+li.UUID+`"`, `"uuid":"6c1f0a52-0000-4000-8000-00000000feed"`, 1)
			note = strings.Replace(note, `"parentUuid":"`+li.ParentUUID+`"`, `"parentUuid":"`+li.UUID+`"`, 1)
			var m map[string]any
			if err := json.Unmarshal([]byte(note), &m); err != nil {
				return nil, false
			}
			m["type"], m["isMeta"] = "user", true
			m["message"] = map[string]any{"role": "user", "content": "Oracle meta note."}
			for _, k := range []string{"requestId", "toolUseResult", "sourceToolAssistantUUID"} {
				delete(m, k)
			}
			b, err := json.Marshal(m)
			if err != nil {
				return nil, false
			}
			return joinLines(append(ls, string(b)), true), true
		}},
		{"prompt-content-number", func(ls []string) ([]byte, bool) {
			for i, l := range ls {
				li, _ := info(l)
				if li.Type != "user" || li.IsSidechain || len(li.Message.Content) == 0 || li.Message.Content[0] != '"' {
					continue
				}
				ls[i] = strings.Replace(l, `"content":`+string(li.Message.Content), `"content":7`, 1)
				return joinLines(ls, true), ls[i] != l
			}
			return nil, false
		}},
	}
}

// readerRules are the rules whose severity says what a resume does (with
// schema, which reports an entry whose message content is gone).
var readerRules = map[string]bool{
	"orphan-parent": true, "parent-cycle": true, "tool-result-off-chain": true, "unmatched-tool-use": true,
	"unmatched-tool-result": true, "duplicate-tool-use-id": true, "duplicate-uuid": true, "nul-bytes": true,
	"truncated-line": true, "missing-final-newline": true, "invalid-json": true, "sidechain-leaf": true,
	"lone-surrogate": true, "invalid-utf8": true, "schema": true, "orphan-logical-parent": true, "byte-order-mark": true,
}

// TestLintAgreesWithRealReader lints every damaged copy of the oracle's
// matrix and checks the severity against what the real reader of that
// version did: an error exactly when it failed, sent a request the API
// refuses, left out conversation the file still holds, fused its next
// append onto the damage, or the damage destroyed bytes (a line that no
// longer parses, invalid UTF-8, a message whose content is gone).
//
// The doctrine (docs/rules.md): by default lint judges for today's reader
// (resume.Newest), with --reader-version V for the pinned reader V. So each
// version's copies are linted with --reader-version V, and the copies of
// today's readers (resume.Newest and any newer version run) also with no
// flag at all.
func TestLintAgreesWithRealReader(t *testing.T) {
	oracle.Require(t)
	ctx := context.Background()
	versions := agreementVersions(ctx, t)
	agree, total := 0, 0
	for _, v := range versions {
		m := oracle.NewMatrix(t.TempDir())
		for _, c := range oracle.Corruptions() {
			if !oracle.Selected(c.ID) {
				continue
			}
			out, err := m.Run(ctx, v, c.ID)
			if err != nil {
				t.Errorf("%s %s: %v", v, c.ID, err)
				continue
			}
			if !out.Applicable {
				continue
			}
			_, data, err := m.Damaged(ctx, v, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			destroyed := false
			for k, l := range strings.Split(string(data), "\n") {
				if k == 0 {
					l = strings.TrimPrefix(l, "\ufeff") // the reader reads it (measured)
				}
				if strings.TrimSpace(l) == "" {
					continue
				}
				if !json.Valid([]byte(l)) || !utf8Valid(l) || contentGone(l) {
					destroyed = true
				}
			}
			want := out.Exit != 0 || out.Status >= 400 || len(out.Lost) > 0 || out.File == "appended-fused" || destroyed
			if c.Healthy {
				// Which branch end a resume starts from: the other branch
				// is not sent, by design.
				want = out.Exit != 0 || out.Status >= 400
			}
			dir := filepath.Join(t.TempDir(), "projects", "-oracle")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "5b0e2c8a-1f3d-4c6e-9a7b-2d4f6e8a0c1e.jsonl")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			modes := [][]string{{"--reader-version", v}}
			if pv, ok := resume.ParseVersion(v); ok && !pv.Less(resume.Newest) {
				modes = append(modes, nil) // the default: today's reader
			}
			for _, mode := range modes {
				res, _, _ := runJSON(t, append(append([]string{"--no-config"}, mode...), p)...)
				var errs []string
				for _, f := range res.Findings {
					if f.Severity == "error" && readerRules[f.Rule] {
						errs = append(errs, f.Rule)
					}
				}
				got := len(errs) > 0
				total++
				if got == want {
					agree++
					continue
				}
				how := "default"
				if mode != nil {
					how = "--reader-version " + v
				}
				t.Errorf("%s/%s (%s): real reader: %s (want an error: %v); ccvet errors: %v", v, c.ID, how, out.Summary, want, errs)
			}
		}
	}
	t.Logf("lint severity agrees with the real reader on %d of %d damaged sessions", agree, total)
}

// contentGone reports a user or assistant entry whose message.content is
// missing or neither text nor a list: its text is destroyed.
func contentGone(l string) bool {
	var e struct {
		Type    string          `json:"type"`
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal([]byte(l), &e) != nil || (e.Type != "user" && e.Type != "assistant") {
		return false
	}
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(e.Message, &m) != nil || len(m.Content) == 0 {
		return true
	}
	return m.Content[0] != '"' && m.Content[0] != '['
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
