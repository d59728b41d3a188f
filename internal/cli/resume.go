package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/resume"
)

// cmdResume prints what `claude --resume` of a version would send.
func cmdResume(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := subFlags("resume", stdout)
	format := fs.StringP("format", "f", "text", "text or json")
	rv := fs.String("reader-version", "", "model the reader of Claude Code `V` (default: the newest ccvet has measured, the reader users run today)")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("resume takes one TRANSCRIPT")
	}
	if *format != "text" && *format != "json" {
		return usagef("resume --format: want text or json, got %q", *format)
	}
	var override resume.Version
	if *rv != "" {
		v, ok := resume.ParseVersion(*rv)
		if !ok {
			return usagef("--reader-version: want a version such as 2.1.330, got %q", *rv)
		}
		override = v
	}
	path := fs.Arg(0)
	in := stdin
	name := "(standard input)"
	if path != "-" {
		st, err := os.Stat(path)
		if err != nil {
			return usagef("%v", err)
		}
		if st.IsDir() {
			return usagef("%s is a folder; resume takes one transcript (.jsonl)", path)
		}
		fh, err := os.Open(path)
		if err != nil {
			return usagef("%v", err)
		}
		defer fh.Close()
		in, name = fh, path
	}
	ld, err := resume.Load(in)
	if err != nil {
		return usagef("reading %s: %v", name, err)
	}
	if agent := agentOf(path, ld); agent != "" {
		ld.Agent = agent
	}
	reader := override
	why := "set by --reader-version"
	if reader.Zero() {
		// Users upgrade and do not go back: the reader of a file is today's,
		// as lint judges it.
		reader, why = resume.Newest, "the newest version ccvet has measured, the reader users run today; --reader-version V models an older one"
	}
	res := resume.RunLoaded(ld, resume.ProfileOf(reader))
	if path != "-" {
		explainCuts(path, res)
	}
	if *format == "json" {
		return resumeJSON(stdout, res)
	}
	resumeText(stdout, name, ld, res, why)
	return nil
}

// explainCuts says, for each history cut at a missing parent, whether that
// parent is in another transcript nearby (an older transcript of a resumed or
// forked session in the same folder, or the parent session of a subagent):
// the reader loads only this file, so it is still cut there.
func explainCuts(path string, res *resume.Result) {
	var cuts []*resume.Event
	for k, e := range res.LeftOut {
		if e.Kind == resume.KindHistoryCut && e.Parent != "" {
			cuts = append(cuts, &res.LeftOut[k])
		}
	}
	for k, e := range res.Changed {
		if e.Kind == resume.KindBridged && e.Parent != "" {
			cuts = append(cuts, &res.Changed[k])
		}
	}
	if len(cuts) == 0 {
		return
	}
	dir := filepath.Dir(path)
	cands, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if filepath.Base(filepath.Dir(dir)) != "" && filepath.Base(dir) == "subagents" {
		session := filepath.Dir(filepath.Dir(path))
		cands = append(cands, session+".jsonl")
	}
	self, _ := filepath.Abs(path)
	for _, c := range cands {
		if abs, _ := filepath.Abs(c); abs == self {
			continue
		}
		st, err := os.Lstat(c)
		if err != nil || !st.Mode().IsRegular() || st.Size() > 1<<30 {
			continue // no links followed, nothing huge read
		}
		data, err := os.ReadFile(c)
		if err != nil {
			continue
		}
		for _, e := range cuts {
			if strings.Contains(e.Reason, "; the parent is in ") {
				continue
			}
			i := bytes.Index(data, []byte(`"uuid":"`+e.Parent+`"`))
			if i < 0 {
				continue
			}
			line := bytes.Count(data[:i], []byte("\n")) + 1
			e.Reason += fmt.Sprintf("; the parent is in %s (line %d), which the reader does not load", filepath.Base(c), line)
		}
	}
}

// agentOf is the agent id of a subagent transcript (agent-<id>.jsonl whose
// entries are all sidechain entries of that agent), or "".
func agentOf(path string, ld *resume.Loaded) string {
	base := filepath.Base(path)
	if !strings.HasPrefix(base, "agent-") || !strings.HasSuffix(base, ".jsonl") {
		return ""
	}
	id := ""
	for _, r := range ld.Records {
		if r.Type != "user" && r.Type != "assistant" {
			continue
		}
		if !r.IsSidechain || r.AgentID == "" || (id != "" && r.AgentID != id) {
			return ""
		}
		id = r.AgentID
	}
	return id
}

type jsonMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
	Lines   []int  `json:"lines"`
}

type jsonResume struct {
	ReaderVersion string         `json:"reader_version"`
	Failed        string         `json:"failed,omitempty"`
	Leaf          *resume.Leaf   `json:"leaf"`
	Messages      []jsonMessage  `json:"messages"`
	LeftOut       []resume.Event `json:"left_out"`
	Changed       []resume.Event `json:"changed"`
}

func resumeJSON(w io.Writer, res *resume.Result) error {
	out := jsonResume{ReaderVersion: res.Reader.String(), Failed: res.Failed, Leaf: res.Leaf,
		Messages: []jsonMessage{}, LeftOut: res.LeftOut, Changed: res.Changed}
	if out.LeftOut == nil {
		out.LeftOut = []resume.Event{}
	}
	if out.Changed == nil {
		out.Changed = []resume.Event{}
	}
	for _, m := range res.Messages {
		jm := jsonMessage{Role: m.Role, Content: m.Content, Lines: m.Lines}
		if m.StringContent {
			jm.Content = resume.TextNoContent
		}
		if jm.Lines == nil {
			jm.Lines = []int{}
		}
		out.Messages = append(out.Messages, jm)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func resumeText(w io.Writer, name string, ld *resume.Loaded, res *resume.Result, why string) {
	s := report.Sanitize
	writer := "names no version"
	if !ld.Writer.Zero() {
		writer = "written by " + ld.Writer.String()
	}
	fmt.Fprintf(w, "%s (%s), as `claude --resume` of Claude Code %s rebuilds it (%s).\n\n",
		s(name), writer, res.Reader, why)
	if res.Failed != "" {
		fmt.Fprintf(w, "The resume fails: %s. Nothing is sent.\n", s(res.Failed))
		printEvents(w, "Left out", res.LeftOut)
		return
	}
	if res.Leaf != nil {
		fmt.Fprintf(w, "It starts from line %d (%s entry %s): %s.\n", res.Leaf.Line, s(res.Leaf.Type), s(res.Leaf.UUID), s(res.Leaf.Reason))
	}
	fmt.Fprintf(w, "\nIt sends %d message%s:\n", len(res.Messages), pluralS(len(res.Messages)))
	for k, m := range res.Messages {
		from := "added by the reader"
		if len(m.Lines) > 0 {
			var ls []string
			for _, l := range m.Lines {
				ls = append(ls, fmt.Sprint(l))
			}
			from = "line " + strings.Join(ls, ", ")
			if len(ls) > 1 {
				from = "lines " + strings.Join(ls, ", ")
			}
		}
		var parts []string
		for _, b := range m.Content {
			parts = append(parts, blockSummary(b))
		}
		if m.StringContent {
			parts = []string{fmt.Sprintf("%q", resume.TextNoContent)}
		}
		fmt.Fprintf(w, "  %2d. %-9s %s  (%s)\n", k+1, m.Role, s(strings.Join(parts, "; ")), from)
	}
	printEvents(w, "Left out", res.LeftOut)
	printEvents(w, "Changed", res.Changed)
	if len(res.LeftOut) == 0 && len(res.Changed) == 0 {
		fmt.Fprintln(w, "\nNothing is left out or changed: the resume sends the conversation as the file has it.")
	}
}

func printEvents(w io.Writer, title string, evs []resume.Event) {
	if len(evs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s (%d):\n", title, len(evs))
	for _, e := range evs {
		where := ""
		if e.Line > 0 {
			where = fmt.Sprintf("line %d: ", e.Line)
		}
		fmt.Fprintf(w, "  - %s%s\n", where, report.Sanitize(e.Reason))
	}
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// blockSummary is one block in a few words: `text "…"`, `tool_use toolu_01 (Bash)`.
func blockSummary(b resume.Block) string {
	str := func(k string) string { v, _ := b[k].(string); return v }
	switch t := b.Type(); t {
	case "text":
		x := strings.Join(strings.Fields(str("text")), " ")
		if r := []rune(x); len(r) > 60 {
			x = string(r[:60]) + "…"
		}
		return fmt.Sprintf("text %q", x)
	case "tool_use", "server_tool_use":
		if n := str("name"); n != "" {
			return t + " " + str("id") + " (" + n + ")"
		}
		return t + " " + str("id")
	case "tool_result":
		if e, _ := b["is_error"].(bool); e {
			return "tool_result " + str("tool_use_id") + " (error)"
		}
		return "tool_result " + str("tool_use_id")
	default:
		return t
	}
}
