package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ccvet/ccvet/internal/inventory"
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
	if err := parseSub(fs, args); err != nil {
		return err
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
	rep, err := inventory.Build(root, o)
	if err != nil {
		return usagef("sessions: %v", err)
	}
	rep.Filter(*project)
	inventory.SortSessions(rep.Sessions, *sortKey)
	if *limit > 0 && len(rep.Sessions) > *limit {
		rep.Sessions = rep.Sessions[:*limit]
	}
	if *format == "json" {
		return report.EncodeJSON(stdout, rep)
	}
	return sessionsText(stdout, rep)
}

// sessionsText prints the inventory as a table and lists of reasons; every
// string from the store is escaped.
func sessionsText(w io.Writer, r *inventory.Report) error {
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
	b.WriteString("\n")
	if len(r.Sessions) == 0 {
		b.WriteString("No sessions.\n")
	} else {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "LAST ACTIVITY\tSESSION\tPROJECT\tSIZE\tAGENTS\tVERSION\t/RESUME\tFIRST PROMPT")
		for _, s := range r.Sessions {
			proj := s.Cwd
			if proj == "" {
				proj = s.Project
			}
			state := "listed"
			if !s.Picker.Listed {
				state = "HIDDEN"
			}
			if s.CleanupDue {
				state += ", expires"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", esc(shortTime(s.LastActivity)), esc(short(s.SessionID, 8)),
				esc(clipLeft(proj, 40)), human(s.Size+s.SubagentBytes), s.Subagents, esc(versions(s.Versions)),
				state, esc(inventory.Clip(s.FirstPrompt, 60)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	var hidden, notes []string
	for _, s := range r.Sessions {
		for _, x := range s.Picker.Hidden {
			hidden = append(hidden, fmt.Sprintf("  %s %s [%s]: %s", esc(short(s.SessionID, 8)), esc(x.Code), esc(strings.Join(x.Versions, ", ")), esc(x.Detail)))
		}
		for _, x := range s.Picker.Notes {
			notes = append(notes, fmt.Sprintf("  %s %s [%s]: %s", esc(short(s.SessionID, 8)), esc(x.Code), esc(strings.Join(x.Versions, ", ")), esc(x.Detail)))
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
		probs = append(probs, fmt.Sprintf("  %s %s: %s", esc(string(p.Kind)), esc(p.Path), esc(p.Message)))
	}
	if len(probs) > 0 {
		b.WriteString("\nWhere sessions went:\n" + strings.Join(probs, "\n") + "\n")
	}
	s := r.Summary
	fmt.Fprintf(&b, "\n%s: %d listed by /resume, %d hidden, %d due for cleanup; %s where sessions went\n",
		countOf(s.Sessions, "session", "sessions"), s.Listed, s.Hidden, s.CleanupDue, countOf(len(probs), "finding", "findings"))
	_, err := io.WriteString(w, sanitizeLines(b.String()))
	return err
}

func shortTime(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04Z")
}

func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// clipLeft keeps the end of a long path, where the project's name is.
func clipLeft(s string, n int) string {
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
