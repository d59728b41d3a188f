package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/ccvet/ccvet/internal/drift"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/lint"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/rules"
)

// cmdStats prints, per Claude Code version, the entries by type and every
// unknown entry type and unknown field with its first place: format drift.
func cmdStats(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ccvet stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.StringP("format", "f", "text", "output format: text or json")
	jobs := fs.IntP("jobs", "j", 0, "check `N` files at once (default: number of CPUs)")
	stdinName := fs.String("stdin-filename", "", "name to report for a transcript read from standard input (`-`)")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if *format != "text" && *format != "json" {
		return usagef("stats --format: want text or json, got %q", *format)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		root, err := defaultRoot()
		if err != nil {
			return err
		}
		paths = []string{root}
	}
	found, err := layout.Discover(paths, *stdinName)
	if err != nil {
		return usageError{err}
	}
	// No rule runs: the engine only reads, decodes and hands each line over.
	off := map[string]bool{}
	for _, r := range rules.All() {
		off[r.ID] = false
	}
	st := drift.New()
	eng, err := lint.New(lint.Options{Jobs: *jobs, Enabled: off, Stdin: stdin, OnLine: st.Line})
	if err != nil {
		return err
	}
	res := eng.Run(found)
	out := st.Report(drift.Tool{Name: "ccvet", Version: Version()},
		drift.Summary{Files: res.Files, Entries: res.Entries, Skipped: res.Skipped})
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return statsText(stdout, out)
}

// statsText prints the report of ccvet stats as text.
func statsText(w io.Writer, r *drift.Report) error {
	var b strings.Builder
	for _, v := range r.Versions {
		name := "(no version)"
		if v.Version != "" {
			name = "Claude Code " + v.Version
		}
		fmt.Fprintf(&b, "%s: %s\n", name, countOf(v.Entries, "entry", "entries"))
		var types []string
		for t := range v.Types {
			types = append(types, t)
		}
		sort.Strings(types)
		for i, t := range types {
			types[i] = fmt.Sprintf("%s %d", t, v.Types[t])
		}
		if len(types) > 0 {
			fmt.Fprintf(&b, "  types: %s\n", strings.Join(types, ", "))
		}
		for _, u := range v.UnknownTypes {
			fmt.Fprintf(&b, "  unknown %s %q at %s: %d, first at %s\n", u.Kind, u.Name, u.Pointer, u.Count, u.First)
		}
		for _, f := range v.UnknownFields {
			fmt.Fprintf(&b, "  unknown field %s: %d, first at %s\n", f.Pointer, f.Count, f.First)
		}
	}
	fmt.Fprintf(&b, "%s checked, %s (%s skipped)\n", countOf(r.Summary.Files, "file", "files"),
		countOf(r.Summary.Entries, "entry", "entries"), countOf(r.Summary.Skipped, "other file", "other files"))
	_, err := io.WriteString(w, sanitizeLines(b.String()))
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
