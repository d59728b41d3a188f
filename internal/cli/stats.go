package cli

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ccvet/ccvet/internal/drift"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/lint"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/rules"
)

// cmdStats prints, per Claude Code version, the entries by type and every
// unknown entry type and unknown field with its first place: format drift.
func cmdStats(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := subFlags("stats", stdout)
	format := fs.StringP("format", "f", "text", "output format: text or json")
	jobs := fs.IntP("jobs", "j", 0, "read `N` files at once (default: number of CPUs)")
	stdinName := fs.String("stdin-filename", "", "report the transcript read from standard input (PATH -) as `NAME`")
	since := fs.String("since", "", "show only Claude Code `VERSION` and later, and what they first wrote")
	// Flags carried over from lint: stats reads no configuration and prints
	// no summary or progress, so they change nothing, but they are no error.
	quiet := fs.BoolP("quiet", "q", false, "no notes on standard error about skipped files (the totals line stays; stats shows no progress)")
	fs.Bool("no-config", false, "accepted as in lint; stats reads no configuration")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if *since != "" && !drift.ValidVersion(*since) {
		return usagef("stats --since: want a version such as 2.1.200, got %q", *since)
	}
	if *format != "text" && *format != "json" {
		return usagef("stats --format: want text or json, got %q", *format)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		root, err := defaultRoot(stdin)
		if err != nil {
			return err
		}
		paths = []string{root}
	}
	found, err := layout.DiscoverFromHere(paths, *stdinName)
	if err != nil {
		return usageError{err}
	}
	for _, p := range layout.DropForeign(found) {
		if !*quiet {
			fmt.Fprintf(stderr, "ccvet: %s: skipped: no line is a Claude Code entry\n", report.Sanitize(report.MaskPath(p)))
		}
	}
	// No rule runs but unreadable: the engine only reads, decodes and hands
	// each line over. What it could not read is said, not counted as a
	// file of no entries in silence.
	off := map[string]bool{}
	for _, r := range rules.All() {
		off[r.ID] = r.ID == "unreadable"
	}
	st := drift.New()
	var mu sync.Mutex
	var cut []string // the lines too long to read, as "PATH:LINE"
	onLine := func(l *model.Line) {
		if l.Cut {
			mu.Lock()
			cut = append(cut, fmt.Sprintf("%s:%d", report.Sanitize(report.MaskPath(l.File.Path)), l.Num))
			mu.Unlock()
		}
		st.Line(l)
	}
	eng, err := lint.New(lint.Options{Jobs: *jobs, Enabled: off, Stdin: stdin, OnLine: onLine})
	if err != nil {
		return err
	}
	res := eng.Run(found)
	res.Close()
	if !*quiet {
		for _, f := range res.Findings { // sorted
			if f.Rule == "unreadable" {
				fmt.Fprintf(stderr, "ccvet: %s: skipped: %s\n", report.Sanitize(report.MaskPath(f.Path)), report.Sanitize(f.Message))
			}
		}
		sort.Strings(cut)
		for _, c := range cut {
			fmt.Fprintf(stderr, "ccvet: %s: skipped: the line is longer than ccvet holds in memory\n", c)
		}
	}
	out := st.Report(drift.Tool{Name: "ccvet", Version: Version()},
		drift.Summary{Files: res.Files, Entries: res.Entries, Skipped: res.Skipped}, *since)
	if *format == "json" {
		return encodeJSONMasked(stdout, out)
	}
	return statsText(stdout, out)
}

// statsText prints the report of ccvet stats as text. Every string that
// comes from the data (versions, types, field names, paths) is escaped as
// the lint report escapes it (report.Sanitize), so a newline or a control
// character in a transcript can never start an output line of its own (a
// forged "::error" workflow command in a CI log, for one).
func statsText(w io.Writer, r *drift.Report) error {
	var b strings.Builder
	// Every string from the data is masked on its own, before it is put
	// between other characters than the file's (a key is found by what
	// follows it, a quote or a space, not a colon).
	esc := func(s string) string { return report.Sanitize(report.MaskValue("", s)) }
	at := func(p drift.Place) string { return fmt.Sprintf("%s:%d:%d", esc(p.Path), p.Line, p.Column) }
	for _, v := range r.Versions {
		name := "(no version)"
		if v.Version != "" {
			name = "Claude Code " + esc(v.Version)
		}
		fmt.Fprintf(&b, "%s: %s\n", name, countOf(v.Entries, "entry", "entries"))
		var types []string
		for t := range v.Types {
			types = append(types, t)
		}
		sort.Strings(types)
		for i, t := range types {
			types[i] = fmt.Sprintf("%s %d", esc(t), v.Types[t])
		}
		if len(types) > 0 {
			fmt.Fprintf(&b, "  types: %s\n", strings.Join(types, ", "))
		}
		for _, u := range v.UnknownTypes {
			fmt.Fprintf(&b, "  unknown %s %q at %s: %d, first at %s\n", esc(u.Kind), report.MaskValue("", u.Name), esc(u.Pointer), u.Count, at(u.First))
		}
		for _, f := range v.UnknownFields {
			fmt.Fprintf(&b, "  unknown field %s: %d, first at %s\n", esc(f.Pointer), f.Count, at(f.First))
		}
	}
	escAll := func(list []string) string {
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = esc(s)
		}
		return strings.Join(out, ", ")
	}
	for _, g := range r.FirstWritten {
		name := "(no version)"
		if g.Version != "" {
			name = "Claude Code " + esc(g.Version)
		}
		if len(g.UnknownFields) > 0 {
			fmt.Fprintf(&b, "unknown fields first written by %s: %s\n", name, escAll(g.UnknownFields))
		}
		if len(g.New) > 0 {
			fmt.Fprintf(&b, "first written by %s: %s\n", name, escAll(g.New))
		}
	}
	fmt.Fprintf(&b, "%s checked, %s (%s skipped)\n", countOf(r.Summary.Files, "file", "files"),
		countOf(r.Summary.Entries, "entry", "entries"), countOf(r.Summary.Skipped, "other file", "other files"))
	_, err := io.WriteString(w, sanitizeLines(report.MaskText(b.String())))
	return err
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// sanitizeLines escapes control characters in every line (names come from
// transcripts) but keeps the newlines.
func sanitizeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = report.Sanitize(l)
	}
	return strings.Join(lines, "\n")
}
