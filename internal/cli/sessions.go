package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/inventory"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/outpath"
	"github.com/ccvet/ccvet/internal/report"
)

// cmdSessions prints the inventory of a data root: every session, whether
// /resume lists it, and where sessions went (docs/sessions.md).
func cmdSessions(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := subFlags("sessions", stdout)
	format := fs.StringP("format", "f", "text", "output format: text or json")
	project := fs.String("project", "", "only sessions whose project folder or cwd contains `TEXT` (and the problems about them)")
	sortKey := fs.String("sort", "project", "order sessions by project (then newest first), activity (newest first) or size (largest first)")
	limit := fs.Int("limit", 0, "show at most `N` sessions (0: all)")
	nowFlag := fs.String("now", "", "judge cleanup at this RFC 3339 `TIME` instead of now (reproducible reports)")
	paths := fs.Bool("paths", false, "show each session's full id and transcript path (text)")
	recoverID := fs.String("recover", "", "copy what survives of the lost session `ID` (prompts, file versions, subagent transcripts, tool results, todos) into --out")
	out := fs.String("out", "", "the new or empty `DIR` --recover writes into (never inside the data root)")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if (*recoverID == "") != (*out == "") {
		return usagef("sessions: --recover ID and --out DIR go together")
	}
	if *format != "text" && *format != "json" {
		return usagef("sessions --format: want text or json, got %q", *format)
	}
	if !inventory.ValidSort(*sortKey) {
		return usagef("sessions --sort: want project, activity or size, got %q", *sortKey)
	}
	if *limit < 0 {
		return usagef("sessions --limit: want 0 or more, got %d", *limit)
	}
	var o inventory.Options
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			return usagef("sessions --now: want an RFC 3339 time such as 2026-11-23T12:00:00Z, got %q", *nowFlag)
		}
		o.Now = t
	}
	if fs.NArg() > 1 {
		return usagef("sessions takes one ROOT")
	}
	root := fs.Arg(0)
	if root == "" {
		r, err := defaultRootFor(stdin, "ROOT")
		if err != nil {
			return err
		}
		root = r
	}
	root, folder := dataRootOf(root)
	if *recoverID != "" {
		return sessionsRecover(stdout, root, *recoverID, *out, *format, o)
	}
	rep, err := inventory.Build(root, o)
	if err != nil {
		return usagef("sessions: %v", err)
	}
	if folder != "" {
		rep.FilterFolder(folder)
	}
	rep.Filter(*project) // both: --project narrows the folder's sessions too
	inventory.SortSessions(rep.Sessions, *sortKey)
	if *limit > 0 && len(rep.Sessions) > *limit {
		rep.Sessions = rep.Sessions[:*limit]
	}
	if *format == "json" {
		return encodeJSONMasked(stdout, rep)
	}
	return sessionsText(stdout, rep, *paths)
}

// dataRootOf takes ROOT/projects or ROOT/projects/<folder>, as the lint
// accepts them, for the data root ROOT (and that one project folder).
func dataRootOf(p string) (root, folder string) {
	if isDir(filepath.Join(p, "projects")) {
		return p, ""
	}
	clean := filepath.Clean(p)
	if filepath.Base(clean) == "projects" {
		return filepath.Dir(clean), ""
	}
	if parent := filepath.Dir(clean); filepath.Base(parent) == "projects" && isDir(clean) {
		return filepath.Dir(parent), filepath.Base(clean)
	}
	return p, ""
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// sessionsRecover copies what survives of a lost session out of the data
// root, refusing a DIR inside it.
func sessionsRecover(stdout io.Writer, root, id, out, format string, o inventory.Options) error {
	if !layout.IsUUID(id) {
		return usagef("sessions --recover: want a session id (a UUID), got %q", id)
	}
	if !isDir(root) {
		return usagef("sessions: %s is not a folder (ccvet sessions wants a Claude Code data root)", root)
	}
	if layout.Within(outpath.Resolve(out), outpath.Resolve(root)) {
		return usagef("sessions --out: %s lies inside %s, the data root read; write it elsewhere", out, root)
	}
	r, err := inventory.Recover(root, id, out, o)
	if err != nil {
		// Nothing to recover, a DIR not empty, or a write that failed (what
		// was written stays in DIR): the caller's to fix, as for -o.
		return usagef("sessions --recover: %v", err)
	}
	if format == "json" {
		return encodeJSONMasked(stdout, r)
	}
	fmt.Fprintf(stdout, "Recovered into %s what survives of session %s (%s):\n", report.Sanitize(out), report.Sanitize(id), report.Sanitize(string(r.Lost.Cause)))
	fmt.Fprintf(stdout, "  %d prompt(s) with %d pasted content(s) (prompts.md, prompts.jsonl)\n", r.Prompts, r.Pasted)
	fmt.Fprintf(stdout, "  %d file-history version(s), %d named by their path\n", r.FileVersions, r.Named)
	fmt.Fprintf(stdout, "  %d subagent transcript(s), %d tool result(s), %d todo file(s)\n", r.Subagents, r.ToolResults, r.Todos)
	for _, sk := range r.Skipped {
		fmt.Fprintf(stdout, "  skipped %s\n", report.Sanitize(report.MaskPath(sk)))
	}
	fmt.Fprintf(stdout, "The transcript itself cannot be recovered (README.md in %s says what is missing).\n", report.Sanitize(out))
	return nil
}

// sessionsText prints the inventory as a table and lists of reasons; every
// string from the store is escaped.
func sessionsText(w io.Writer, r *inventory.Report, paths bool) error {
	var b strings.Builder
	esc := report.Sanitize // each field on its own: a newline in one must not start a line
	c := r.Cleanup
	fmt.Fprintf(&b, "Data root: %s\n", esc(r.Root))
	switch {
	case c.Enabled:
		fmt.Fprintf(&b, "Cleanup: transcripts last written before %s (%d days, %s) are deleted at the next start of Claude Code\n", esc(c.Cutoff), c.PeriodDays, esc(c.Source))
	default:
		fmt.Fprintf(&b, "Cleanup: off\n")
	}
	if c.Note != "" {
		fmt.Fprintf(&b, "  %s\n", esc(c.Note))
	}
	if c.Enabled {
		f := c.Forecast
		fmt.Fprintf(&b, "  due now %d; within 7 days %d; within 30 days %d", f.DueNow, f.Within7, f.Within30)
		if c.LastRun != "" {
			fmt.Fprintf(&b, " (last cleanup %s)", c.LastRun)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	if len(r.Sessions) == 0 {
		b.WriteString("No sessions.\n")
		for _, bk := range r.Backups {
			fmt.Fprintf(&b, "  %s holds %s: Claude Code reads only projects/ (move them back, or copy one out and run ccvet on it)\n",
				report.MaskPath(bk.Path), countOf(bk.Transcripts, "transcript", "transcripts"))
		}
	} else if paths {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "LAST ACTIVITY\tSESSION\t/RESUME\tPATH")
		for _, s := range r.Sessions {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", shortTime(s.LastActivity), report.Sanitize(s.SessionID), resumeState(s),
				report.Sanitize(report.MaskPath(filepath.Join(r.Root, filepath.FromSlash(s.Path)))))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "LAST ACTIVITY\tSESSION\tPROJECT\tSIZE\tAGENTS\tVERSION\t/RESUME\tFIRST PROMPT")
		for _, s := range r.Sessions {
			proj := s.Cwd
			if proj == "" {
				proj = s.Project
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", esc(shortTime(s.LastActivity)), esc(shortID(s.SessionID)),
				esc(clipLeft(proj, 40)), human(s.Size+s.SubagentBytes), s.Subagents, esc(versions(s.Versions)),
				resumeState(s), esc(inventory.Clip(s.FirstPrompt, 60)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(r.Lost) > 0 {
		b.WriteString("\nLost (transcript gone, traces left; ccvet sessions --recover ID --out DIR copies them out):\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "LAST SEEN\tSESSION\tPROJECT\tCAUSE\tPROMPTS\tFILE VERSIONS\tAGENTS\tTOOL RESULTS\tTODOS")
		for _, l := range r.Lost {
			proj := l.Cwd
			if proj == "" {
				proj = l.Project
			}
			id := shortID(l.SessionID)
			if paths {
				id = l.SessionID
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\n", esc(shortTime(l.LastSeen)), esc(id),
				esc(clipLeft(proj, 40)), esc(l.Cause), l.Prompts, l.FileVersion, l.Subagents, l.ToolResults, l.Todos)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	var hidden, notes []string
	for _, s := range r.Sessions {
		for _, x := range s.Picker.Hidden {
			hidden = append(hidden, fmt.Sprintf("  %s %s [%s]: %s", esc(shortID(s.SessionID)), esc(x.Code), esc(strings.Join(x.Versions, ", ")), esc(x.Detail)))
		}
		for _, x := range s.Picker.Notes {
			notes = append(notes, fmt.Sprintf("  %s %s [%s]: %s", esc(shortID(s.SessionID)), esc(x.Code), esc(strings.Join(x.Versions, ", ")), esc(x.Detail)))
		}
	}
	if len(hidden) > 0 {
		b.WriteString("\nLeft out by /resume (versions that leave it out):\n" + strings.Join(hidden, "\n") + "\n")
	}
	if len(notes) > 0 {
		b.WriteString("\nListed, but:\n" + strings.Join(notes, "\n") + "\n")
	}
	var probs []string
	for _, p := range r.Problems {
		if p.Kind == inventory.KindHiddenFromPicker {
			continue // listed above, session by session
		}
		probs = append(probs, fmt.Sprintf("  %s %s: %s", esc(string(p.Kind)), esc(report.MaskPath(p.Path)), esc(report.MaskPath(p.Message))))
	}
	if len(probs) > 0 {
		b.WriteString("\nWhere sessions went:\n" + strings.Join(probs, "\n") + "\n")
	}
	s := r.Summary
	fmt.Fprintf(&b, "\n%s: %d listed by /resume, %d hidden, %d due for cleanup; %d lost; %s where sessions went\n",
		countOf(s.Sessions, "session", "sessions"), s.Listed, s.Hidden, s.CleanupDue, s.Lost, countOf(len(probs), "finding", "findings"))
	_, err := io.WriteString(w, sanitizeLines(report.MaskText(b.String())))
	return err
}

func resumeState(s inventory.Session) string {
	state := "listed"
	if !s.Picker.Listed {
		state = "HIDDEN"
	}
	if s.CleanupDue {
		state += ", expires"
	}
	return state
}

func shortTime(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04Z")
}

// shortID is a session id's first 8 characters, masked before it is cut:
// a key used as an id (the file's name) would no longer be found in 8.
func shortID(id string) string { return short(report.MaskValue("", id), 8) }

func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n-- // not in the middle of a character: half of one prints as \xNN bytes
	}
	return s[:n]
}

// clipLeft keeps the end of a long path, where the project's name is.
func clipLeft(s string, n int) string {
	s = report.MaskText(s) // before the clip: a key cut in two would no longer be found
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

func versions(vs []string) string {
	switch len(vs) {
	case 0:
		return "-"
	case 1:
		return vs[0]
	}
	return vs[0] + ".." + vs[len(vs)-1]
}

func human(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%dB", n)
	case n < k*k:
		return fmt.Sprintf("%.1fK", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1fM", float64(n)/(k*k))
	}
	return fmt.Sprintf("%.1fG", float64(n)/(k*k*k))
}
