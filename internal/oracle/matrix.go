//go:build unix

package oracle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// BaseStep is the gap between consecutive entries of a base session (see
// Session.Respace): well under the readers' 5 s bridge.
const BaseStep = 100 * time.Millisecond

// ResumePrompt is what every matrix resume sends: a plain text turn.
var ResumePrompt = Prompt("Oracle resumed.", Text("Oracle resumed reply."))

// Base is a healthy session played once per version, restored before each
// corruption. Resumes on one Base run one at a time.
type Base struct {
	Env       *Env
	SessionID string
	File      string // the transcript
	Pristine  []byte // its healthy bytes

	mu sync.Mutex
}

// Resumed is what one `claude -p --resume` did with a session file.
type Resumed struct {
	Run      RunRecord
	Requests []Request // every request the stand-in received
	Before   []byte    // the file as resumed
	After    []byte    // the file afterwards
}

// Main returns the first request answered from a plan (the rebuilt
// conversation plus the new prompt), or false when none was sent.
func (r Resumed) Main() (Request, bool) {
	for _, q := range r.Requests {
		if q.Kind == "main" || q.Kind == "invalid" {
			return q, true
		}
	}
	return Request{}, false
}

// Matrix plays the bases of each version once and resumes corrupted copies.
type Matrix struct {
	Dir string

	mu    sync.Mutex
	bases map[string]*baseOnce
}

type baseOnce struct {
	once sync.Once
	b    *Base
	err  error
}

// NewMatrix keeps its bases under dir.
func NewMatrix(dir string) *Matrix { return &Matrix{Dir: dir, bases: map[string]*baseOnce{}} }

// Base returns the healthy base session of a version, playing it first.
func (m *Matrix) Base(ctx context.Context, version, base string) (*Base, error) {
	m.mu.Lock()
	bo := m.bases[version+"/"+base]
	if bo == nil {
		bo = &baseOnce{}
		m.bases[version+"/"+base] = bo
	}
	m.mu.Unlock()
	bo.once.Do(func() { bo.b, bo.err = playBase(ctx, version, base, filepath.Join(m.Dir, version, "base-"+base)) })
	return bo.b, bo.err
}

func playBase(ctx context.Context, version, base, dir string) (*Base, error) {
	bin, err := Install(ctx, version)
	if err != nil {
		return nil, err
	}
	_ = os.RemoveAll(dir)
	srv, err := NewServer()
	if err != nil {
		return nil, err
	}
	e, err := NewEnv(version, bin, dir, srv)
	if err != nil {
		srv.Close()
		return nil, err
	}
	var id string
	switch base {
	case BaseHand, BaseHandFork:
		// Written, not played: a resume of it is the first run.
		c, _ := LookupHand(map[string]string{BaseHand: "hand-linear", BaseHandFork: "leaf-fork"}[base])
		f, data, err := e.HandFile(c)
		if err != nil {
			srv.Close()
			return nil, err
		}
		return &Base{Env: e, SessionID: HandSessionID, File: f, Pristine: data}, nil
	case BaseTurns:
		id, err = e.play(ctx, Prompt(TurnOnePrompt, Call(Bash(CmdOne)), Text(TurnOneDone)))
		if err == nil {
			_, err = e.play(ctx, Prompt(TurnTwoPrompt, Call(Bash(CmdTwoA), Bash(CmdTwoB)), Text(TurnTwoDone)), "--resume", id)
		}
	case BaseCompact, BaseLarge:
		sc, _ := Lookup(base)
		err = sc.Play(ctx, e)
		if err == nil {
			id, err = e.session(e.Runs[0])
		}
	default:
		err = fmt.Errorf("oracle: no base %q", base)
	}
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("oracle: base %s for %s: %w", base, version, err)
	}
	f := e.SessionFile(id)
	data, err := os.ReadFile(f)
	if err != nil {
		srv.Close()
		return nil, err
	}
	// Entries written by two runs are as far apart as the second run took
	// to start, which depends on the machine's load; the reader's 5 s
	// bridge must not. Re-space them BaseStep apart in file order.
	s := ParseSession(data)
	s.Respace(BaseStep)
	data = s.Bytes()
	if err := os.WriteFile(f, data, 0o600); err != nil {
		srv.Close()
		return nil, err
	}
	return &Base{Env: e, SessionID: id, File: f, Pristine: data}, nil
}

// Resume writes data as the session file and resumes it with prompt.
func (b *Base) Resume(ctx context.Context, data []byte, prompt string) (Resumed, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := os.WriteFile(b.File, data, 0o600); err != nil {
		return Resumed{}, err
	}
	return b.Env.resumeFile(ctx, b.File, b.SessionID, data, prompt)
}

// Outcome is one cell of the reader-behaviour table.
type Outcome struct {
	Corruption string `json:"corruption"`
	Version    string `json:"version"`
	Applicable bool   `json:"applicable"`
	Exit       int    `json:"exit"`
	// NoConversation: the run answered "No conversation found".
	NoConversation bool     `json:"noConversation,omitempty"`
	Sent           bool     `json:"sent"`   // a conversation request reached the stand-in
	Status         int      `json:"status"` // its HTTP status (400 = the real API would refuse it)
	APIError       string   `json:"apiError,omitempty"`
	Dropped        []string `json:"dropped,omitempty"` // blocks of the baseline request missing here
	Added          []string `json:"added,omitempty"`   // blocks here the baseline request lacks
	// Destroyed: blocks of the healthy file that the damage itself removed
	// (deleted or unreadable lines, changed ids).
	Destroyed []string `json:"destroyed,omitempty"`
	// Lost: blocks still readable in the damaged file that the reader did
	// not send, beyond what it leaves out of the healthy file too (the
	// reader's own loss).
	Lost []string `json:"lost,omitempty"`
	File string   `json:"file"` // unchanged, appended, appended-fused, rewritten
	// Detail: the start of the run's error output when it failed (paths
	// under the run's folder shown as $DIR).
	Detail  string `json:"detail,omitempty"`
	Summary string `json:"summary"`
	// Verdict: fails (no request), rejected (400), loses (Lost, or the next
	// append fused onto an unterminated line), repairs (blocks added or
	// altered, or only the damaged entries' own blocks gone), same.
	Verdict string `json:"verdict"`
}

// Damaged returns the base of a corruption for version and the base's
// session bytes with the corruption applied (ErrNotApplicable when it has
// nothing to damage there). Write them to Base.File (under Base.Env.Root)
// to lint them, or pass them to Base.Resume.
func (m *Matrix) Damaged(ctx context.Context, version, id string) (*Base, []byte, error) {
	c, ok := LookupCorruption(id)
	if !ok {
		return nil, nil, fmt.Errorf("oracle: no corruption %q", id)
	}
	b, err := m.Base(ctx, version, c.Base)
	if err != nil {
		return nil, nil, err
	}
	s := ParseSession(b.Pristine)
	if err := c.Apply(s); err != nil {
		return b, nil, err
	}
	return b, s.Bytes(), nil
}

// Run applies a corruption to a fresh copy of its base for version, resumes
// it, and compares the request with the baseline's (the same base resumed
// undamaged).
func (m *Matrix) Run(ctx context.Context, version, id string) (Outcome, error) {
	out := Outcome{Corruption: id, Version: version}
	b, data, err := m.Damaged(ctx, version, id)
	if errors.Is(err, ErrNotApplicable) {
		out.Summary, out.Verdict = "n/a", "n/a"
		return out, nil
	}
	if err != nil {
		return out, err
	}
	base, err := m.baseline(ctx, b)
	if err != nil {
		return out, err
	}
	out.Applicable = true
	r, err := b.Resume(ctx, data, ResumePrompt)
	if err != nil {
		return out, err
	}
	Compare(&out, base, r)
	if out.Exit != 0 {
		d := strings.TrimSpace(r.Run.Result + "\n" + r.Run.Stderr + "\n" + r.Run.Stdout)
		d = strings.ReplaceAll(d, b.Env.Dir, "$DIR")
		if len(d) > 300 {
			d = d[:300]
		}
		out.Detail = d
	}
	return out, nil
}

// baselines caches the undamaged resume of each base.
var baselines sync.Map // *Base -> Resumed

func (m *Matrix) baseline(ctx context.Context, b *Base) (Resumed, error) {
	if v, ok := baselines.Load(b); ok {
		return v.(Resumed), nil
	}
	r, err := b.Resume(ctx, b.Pristine, ResumePrompt)
	if err != nil {
		return r, err
	}
	if _, ok := r.Main(); !ok {
		return r, fmt.Errorf("oracle: the undamaged %s session of %s sent no request: exit %d %s", b.SessionID, b.Env.Version, r.Run.Exit, r.Run.Result+r.Run.Stderr)
	}
	baselines.Store(b, r)
	return r, nil
}

// Compare fills the outcome of a resume against the baseline resume.
func Compare(out *Outcome, base, r Resumed) {
	out.Exit = r.Run.Exit
	out.NoConversation = strings.Contains(r.Run.Result+r.Run.Stderr+r.Run.Stdout, "No conversation found")
	q, sent := r.Main()
	out.Sent = sent
	if sent {
		out.Status, out.APIError = q.Status, q.Error
		bq, _ := base.Main()
		bm, _ := bq.Messages()
		m, _ := q.Messages()
		out.Dropped, out.Added = diffBlocks(Signatures(bm), Signatures(m))
		healthy, damaged := FileSignatures(base.Before), FileSignatures(r.Before)
		out.Destroyed, _ = diffBlocks(healthy, damaged)
		unsent, _ := diffBlocks(damaged, Signatures(m))
		baseUnsent, _ := diffBlocks(healthy, Signatures(bm))
		out.Lost, _ = diffBlocks(unsent, baseUnsent)
	}
	switch {
	case len(r.After) == len(r.Before) && bytes.Equal(r.After, r.Before):
		out.File = "unchanged"
	case bytes.HasPrefix(r.After, r.Before):
		out.File = "appended"
		if len(r.Before) > 0 && r.Before[len(r.Before)-1] != '\n' && r.After[len(r.Before)] != '\n' {
			out.File = "appended-fused"
		}
	default:
		out.File = "rewritten"
	}
	out.Summary = summarize(out)
	out.Verdict = verdict(out)
}

func verdict(o *Outcome) string {
	switch {
	case !o.Sent:
		return "fails"
	case o.Status == 400:
		return "rejected"
	case len(o.Lost) > 0 || o.File == "appended-fused":
		return "loses"
	case len(o.Added) > 0 || len(o.Dropped) > 0 || len(o.Destroyed) > 0:
		return "repairs"
	}
	return "same"
}

// Signatures lists a request's conversation blocks in order, as short
// stable strings: text:FIRST-60-BYTES, tool_use:ID, tool_result:ID (with !
// when is_error). System messages and system-reminder texts are left out
// (they vary between runs and are not conversation).
func Signatures(msgs []Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role != "user" && m.Role != "assistant" {
			continue
		}
		for _, b := range m.Content {
			switch b.Type {
			case "text":
				t := strings.TrimSpace(reminderRE.ReplaceAllString(b.Text, ""))
				if t == "" {
					continue
				}
				if i := strings.Index(t, "\n"); i >= 0 {
					t = t[:i]
				}
				if len(t) > 60 {
					t = t[:60]
				}
				out = append(out, m.Role+" text:"+t)
			case "tool_use", "tool_result":
				out = append(out, ToolToken(b))
			default:
				out = append(out, m.Role+" "+b.Type)
			}
		}
	}
	return out
}

// ToolToken is a tool block in the signatures: tool_use:ID, or
// tool_result:ID with "!" when is_error ("" for another block).
func ToolToken(b Block) string {
	switch b.Type {
	case "tool_use":
		return "tool_use:" + b.ID
	case "tool_result":
		if b.IsError {
			return "tool_result:" + b.ToolUseID + "!"
		}
		return "tool_result:" + b.ToolUseID
	}
	return ""
}

// FileSignatures lists the conversation blocks of a transcript's readable
// user and assistant entries, in file order, as Signatures does.
func FileSignatures(data []byte) []string {
	s := ParseSession(data)
	var msgs []Message
	for _, e := range s.E {
		if e.OK && (e.Type == "user" || e.Type == "assistant") && e.Message != nil {
			msgs = append(msgs, Message{Role: e.Message.Role, Content: e.blocks})
		}
	}
	return Signatures(msgs)
}

// diffBlocks returns the multiset differences a-b (dropped) and b-a (added).
func diffBlocks(a, b []string) (dropped, added []string) {
	count := map[string]int{}
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		count[s]--
	}
	for _, s := range a {
		if count[s] > 0 {
			dropped = append(dropped, s)
			count[s]--
		}
	}
	for k, n := range count {
		for ; n < 0; n++ {
			added = append(added, k)
		}
	}
	sort.Strings(added)
	return dropped, added
}

func summarize(o *Outcome) string {
	var parts []string
	switch {
	case !o.Sent && o.NoConversation:
		parts = append(parts, fmt.Sprintf("FAILS: exit %d, \"No conversation found\", no request", o.Exit))
	case !o.Sent:
		parts = append(parts, fmt.Sprintf("FAILS: exit %d, no request", o.Exit))
	case o.Status == 400:
		parts = append(parts, "REJECTED: 400 "+shortErr(o.APIError))
	}
	if o.Sent && o.Status != 400 {
		_, added, altered := pairAltered(o.Dropped, o.Added)
		if len(o.Lost) > 0 {
			parts = append(parts, fmt.Sprintf("LOSES %d readable block(s): %s", len(o.Lost), kinds(o.Lost)))
		}
		if len(altered) > 0 {
			parts = append(parts, "alters "+strings.Join(altered, ", "))
		}
		if len(added) > 0 {
			parts = append(parts, "adds "+kinds(added))
		}
		if len(o.Lost) == 0 && len(altered) == 0 {
			if len(o.Destroyed) > 0 {
				parts = append(parts, "nothing lost beyond the damaged entries ("+kinds(o.Destroyed)+")")
			} else if len(added) == 0 {
				parts = append(parts, "same messages")
			} else {
				parts = append(parts, "nothing lost")
			}
		}
	}
	if o.Sent && o.Exit != 0 {
		parts = append(parts, fmt.Sprintf("exit %d", o.Exit))
	}
	switch o.File {
	case "rewritten":
		parts = append(parts, "file rewritten")
	case "appended-fused":
		parts = append(parts, "next entry appended onto the unterminated line (lost)")
	}
	return strings.Join(parts, "; ")
}

// pairAltered matches a dropped text with an added text of the same role
// that starts the same way (the text was changed, not lost).
func pairAltered(dropped, added []string) (d, a, altered []string) {
	used := make([]bool, len(added))
	for _, x := range dropped {
		i := strings.Index(x, "text:")
		found := false
		if i >= 0 && len(x) >= i+5+8 {
			for j, y := range added {
				if !used[j] && strings.HasPrefix(y, x[:i+5+8]) {
					used[j], found = true, true
					altered = append(altered, fmt.Sprintf("%s%s to %s", x[:i], strconv.Quote(x[i+5:]), strconv.Quote(y[i+5:])))
					break
				}
			}
		}
		if !found {
			d = append(d, x)
		}
	}
	for j, y := range added {
		if !used[j] {
			a = append(a, y)
		}
	}
	return d, a, altered
}

func shortErr(s string) string {
	for _, k := range []string{"`tool_use` ids were found without `tool_result`", "unexpected `tool_use_id`", "no low surrogate", "ids must be unique"} {
		if strings.Contains(s, k) {
			return k
		}
	}
	if len(s) > 60 {
		return s[:60]
	}
	return s
}

// kinds describes blocks without their ids: "tool_use, tool_result, text
// \"Oracle turn one done.\"".
func kinds(sigs []string) string {
	var out []string
	for _, s := range sigs {
		switch {
		case strings.HasPrefix(s, "tool_use:"):
			out = append(out, "tool_use")
		case strings.HasPrefix(s, "tool_result:"):
			if strings.HasSuffix(s, "!") {
				out = append(out, "tool_result (is_error)")
			} else {
				out = append(out, "tool_result")
			}
		default:
			if i := strings.Index(s, "text:"); i >= 0 {
				out = append(out, s[:i]+"text "+strconv.Quote(s[i+5:]))
			} else {
				out = append(out, s)
			}
		}
	}
	return strings.Join(out, ", ")
}
