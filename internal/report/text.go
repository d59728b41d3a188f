package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/ccvet/ccvet/internal/finding"
)

// TextOptions tune the text printer.
type TextOptions struct {
	Color bool
	Quiet bool // no summary line
	// Snippets, if set, gives the lines to show under findings (snippet.go).
	Snippets LineSource
}

// Text writes compiler-style lines: path:line:col: severity: message [rule].
func Text(w io.Writer, r *Run, o TextOptions) error {
	bw := bufio.NewWriter(w)
	paint := func(c *color.Color, s string) string {
		if !o.Color {
			return s
		}
		c.EnableColor()
		return c.Sprint(s)
	}
	sevColor := map[finding.Severity]*color.Color{
		finding.Error:   color.New(color.FgRed, color.Bold),
		finding.Warning: color.New(color.FgYellow, color.Bold),
		finding.Note:    color.New(color.FgCyan),
	}
	dim := color.New(color.Faint)
	bold := color.New(color.Bold)
	caret := color.New(color.FgGreen, color.Bold)
	for _, f := range r.Findings {
		loc := Sanitize(f.Path)
		if f.Line > 0 {
			loc += ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Column)
		}
		fmt.Fprintf(bw, "%s: %s: %s %s\n", paint(bold, loc), paint(sevColor[f.Severity], f.Severity.String()),
			Sanitize(f.Message), paint(dim, "["+f.Rule+"]"))
		if o.Snippets != nil {
			writeSnippet(bw, o.Snippets, &f, func(s string) string { return paint(caret, s) })
		}
		for _, rel := range f.Related {
			rloc := Sanitize(rel.Path)
			if rel.Line > 0 {
				rloc += ":" + strconv.Itoa(rel.Line) + ":" + strconv.Itoa(rel.Column)
			}
			fmt.Fprintf(bw, "    %s: %s\n", rloc, Sanitize(rel.Message))
		}
	}
	if !o.Quiet {
		fmt.Fprintln(bw, summaryLine(r))
	}
	return bw.Flush()
}

// summaryLine is the one-line count of a run that ends a text report.
func summaryLine(r *Run) string {
	s := r.Summarize()
	line := fmt.Sprintf("%s checked, %s: %s, %s, %s",
		countOf(s.Files, "file", "files"), countOf(s.Entries, "entry", "entries"),
		countOf(s.Errors, "error", "errors"), countOf(s.Warnings, "warning", "warnings"), countOf(s.Notes, "note", "notes"))
	if s.Skipped > 0 {
		line += " (" + countOf(s.Skipped, "other file", "other files") + " skipped)"
	}
	return line
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Sanitize makes untrusted text safe for a terminal: control characters
// (C0, DEL, C1, and bidirectional overrides) and invalid UTF-8 are escaped
// Go-style, so no escape sequence from a transcript reaches the terminal.
func Sanitize(s string) string {
	clean := true
	for _, r := range s {
		if needsEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case needsEscape(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(r rune) bool {
	if r == utf8.RuneError {
		return true
	}
	if unicode.IsControl(r) {
		return true
	}
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F:
		return true // bidirectional controls can reorder what the terminal shows
	}
	return false
}
