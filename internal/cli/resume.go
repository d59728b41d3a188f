package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccvet/ccvet/internal/readonly"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/resume"
)

// resumeAttempts is how many times ccvet resume reads a transcript that is
// rewritten while it reads it.
const resumeAttempts = 3

// cmdResume prints what `claude --resume` of a version would send; with
// --check it is the preflight of docs/resume.md (exit 0, 1 or 5).
func cmdResume(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := subFlags("resume", stdout)
	format := fs.StringP("format", "f", "text", "text or json")
	rv := fs.String("reader-version", "", "model the reader of Claude Code `V` (default: today's, the newest ccvet has measured)")
	root := fs.String("root", "", "the data `ROOT` to look for SESSION_ID in (default $CLAUDE_CONFIG_DIR, else ~/.claude, from a terminal)")
	check := fs.Bool("check", false, "preflight for scripts and host apps: exit 0 resumes without loss, 1 resumes with loss, 5 cannot resume (docs/resume.md)")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("resume takes one TRANSCRIPT, or a SESSION_ID (with --root ROOT)")
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
		if n := resume.Notice(v); n != "" {
			fmt.Fprintf(stderr, "ccvet: --reader-version %s: %s\n", v, n)
		}
	}
	path := fs.Arg(0)
	if path != "-" {
		p, why, err := resumeTarget(path, *root, stdin)
		if err != nil {
			return err
		}
		if why != nil {
			if !*check {
				return usagef("%s", why.Message)
			}
			return finishCheck(stdout, stderr, *format, path, nil, why)
		}
		path = p
	}
	// A file rewritten while it is read (not appended to: bytes already
	// read stay as they are then) is read again from the start, at most
	// resumeAttempts times.
	var (
		ld     *resume.Loaded
		res    *resume.Result
		agent  string
		why    string
		name   = "(standard input)"
		failed error
	)
	for range resumeAttempts {
		in := stdin
		var again io.ReaderAt // where the lines a message needs are read again (nil: kept as read)
		var fh *readonly.Handle
		if path != "-" {
			// Only a regular file: a FIFO would block and a device (/dev/zero)
			// never end.
			// Up to the size at open: a file a writer keeps appending to
			// cannot keep the resume reading.
			var err error
			fh, err = readonly.OpenHandle(path, true)
			if err != nil {
				if *check && os.IsNotExist(err) {
					return finishCheck(stdout, stderr, *format, path, nil, &checkVerdict{Reason: reasonNoTranscript, Message: err.Error()})
				}
				return usagef("%v", err)
			}
			defer fh.Close() // (each attempt's: what is printed may read lines again)
			testAfterOpen(path)
			in, name, again = fh, path, fh
		}
		var err error
		ld, err = resume.LoadFrom(in, again)
		if err != nil {
			return usagef("reading %s: %v", name, err)
		}
		if fh != nil {
			testAfterLoad(path)
		}
		agent = agentOf(path, ld)
		if agent != "" {
			ld.Agent = agent
		}
		var reader resume.Version
		reader, why = readerFor(override, ld.Writer)
		res = resume.RunLoaded(ld, resume.ProfileOf(reader))
		if failed = ld.Err(); failed == nil {
			break
		}
	}
	if failed != nil {
		return usagef("reading %s: %v; it was rewritten while ccvet read it, %d times: run ccvet resume again once nothing rewrites it", name, failed, resumeAttempts)
	}
	if path != "-" {
		explainCuts(path, res)
	}
	if *check {
		return finishCheck(stdout, stderr, *format, name, res, verdictOf(res, agent))
	}
	if *format == "json" {
		return resumeJSON(stdout, res, nil)
	}
	// Every string of the session, not only its text blocks (a tool's name
	// or id, a model name or uuid quoted in a reason): a key in it is
	// masked as in the JSON (what rule secret finds, each byte as '*').
	var buf strings.Builder
	resumeText(&buf, name, ld, res, why)
	_, err := io.WriteString(stdout, report.MaskText(buf.String()))
	return err
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
	cands := jsonlIn(dir)
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
		var open []*resume.Event
		var needles [][]byte
		for _, e := range cuts {
			if !strings.Contains(e.Reason, "; the parent is in ") {
				open = append(open, e)
				needles = append(needles, []byte(`"uuid":"`+e.Parent+`"`))
			}
		}
		if len(open) == 0 {
			break
		}
		lines, err := searchSibling(c, needles)
		if err != nil {
			continue
		}
		for k, e := range open {
			if lines[k] > 0 {
				e.Reason += fmt.Sprintf("; the parent is in %s (line %d), which the reader does not load", filepath.Base(c), lines[k])
			}
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
	SchemaVersion int            `json:"schema_version"`
	ReaderVersion string         `json:"reader_version"`
	Failed        string         `json:"failed"`
	Leaf          *resume.Leaf   `json:"leaf"`
	Messages      []jsonMessage  `json:"messages"`
	LeftOut       []resume.Event `json:"left_out"`
	Changed       []resume.Event `json:"changed"`
	Check         *checkVerdict  `json:"check,omitempty"`
}

// resumeJSON prints the resume (res nil: the transcript could not be read,
// only the verdict of --check is known).
func resumeJSON(w io.Writer, res *resume.Result, check *checkVerdict) error {
	if res == nil {
		res = &resume.Result{Failed: check.Message}
	}
	out := jsonResume{SchemaVersion: JSONSchemaVersion, Failed: res.Failed, Leaf: res.Leaf,
		Messages: []jsonMessage{}, LeftOut: res.LeftOut, Changed: res.Changed, Check: check}
	if !res.Reader.Zero() {
		out.ReaderVersion = res.Reader.String()
	}
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
	// The messages are the session's own words: a key in them is masked
	// as in a snippet (what rule secret finds, each byte as '*').
	var buf bytes.Buffer
	if err := report.EncodeJSON(&buf, out); err != nil {
		return err
	}
	_, err := w.Write(report.MaskDocument(buf.Bytes()))
	return err
}

func resumeText(w io.Writer, name string, ld *resume.Loaded, res *resume.Result, why string) {
	s := report.Sanitize
	writer := "names no version"
	if !ld.Writer.Zero() {
		writer = "written by " + ld.Writer.String()
	}
	fmt.Fprintf(w, "%s (%s), as `claude --resume` of Claude Code %s rebuilds it (%s).\n\n",
		s(report.MaskPath(name)), writer, res.Reader, why)
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
		fmt.Fprintf(w, "  %2d. %-9s %s  (%s)\n", k+1, s(m.Role), s(strings.Join(parts, "; ")), from)
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
		x := strings.Join(strings.Fields(report.MaskText(str("text"))), " ")
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

// readerFor is the reader a resume is modelled for, and why: the version
// --reader-version names (override), else today's, as lint judges by
// default (users upgrade, and the reader that will load the file is the
// newest, not its writer), else the writer when it is newer than any
// measured.
func readerFor(override, writer resume.Version) (resume.Version, string) {
	switch {
	case !override.Zero():
		return override, "set by --reader-version"
	case resume.Newest.Less(writer):
		return writer, "the version that wrote the file (newer than any ccvet has measured)"
	}
	return resume.Newest, "today's reader: the newest version ccvet has measured (--reader-version V for another)"
}

// testAfterOpen is called with the path of each transcript resume and
// request open, once opened (tests append to it there).
var testAfterOpen = func(string) {}

// testAfterLoad is called with the path of each transcript resume has
// loaded, before the lines its messages need are read again (tests
// rewrite it there).
var testAfterLoad = func(string) {}

// searchSibling reads a transcript beside the one resumed as every file
// checked is read (readonly.Open): never blocking, not through a link,
// without moving its access time, up to its size at open. It returns the
// line of the first occurrence of each needle (0: none), reading the file
// a piece at a time: a sibling of hundreds of MB is not held in memory.
func searchSibling(p string, needles [][]byte) ([]int, error) {
	f, err := readonly.OpenHandle(p, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return firstLines(f, needles, 1<<20), nil
}

// firstLines is the line (from 1) of the first occurrence of each needle
// in r, or 0, read in pieces of size bytes.
func firstLines(r io.Reader, needles [][]byte, size int) []int {
	found := make([]int, len(needles))
	keep := 0 // the bytes kept from one piece to the next: a needle may straddle them
	for _, n := range needles {
		keep = max(keep, len(n)-1)
	}
	piece := make([]byte, size)
	var buf []byte
	line := 1 // the line buf[0] is on
	for {
		n, err := io.ReadFull(r, piece)
		buf = append(buf, piece[:n]...)
		for k, nd := range needles {
			if found[k] == 0 && len(nd) > 0 {
				if i := bytes.Index(buf, nd); i >= 0 {
					found[k] = line + bytes.Count(buf[:i], []byte("\n"))
				}
			}
		}
		if err != nil {
			return found
		}
		if cut := len(buf) - keep; cut > 0 {
			line += bytes.Count(buf[:cut], []byte("\n"))
			buf = append(buf[:0], buf[cut:]...)
		}
	}
}
