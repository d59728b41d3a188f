package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
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
	// OpenSnippets, with Snippets, opens another line source (and the
	// function that closes it): many findings are then rendered by Jobs
	// goroutines (<= 0: GOMAXPROCS; 1: none), each reading its own files,
	// and written in order.
	OpenSnippets func() (LineSource, func())
	Jobs         int
}

// Text writes compiler-style lines: path:line:col: severity: message [rule].
func Text(w io.Writer, r *Run, o TextOptions) error {
	bw := bufio.NewWriter(w)
	if o.Jobs <= 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	if o.Snippets != nil && o.OpenSnippets != nil && o.Jobs > 1 && len(r.Findings) >= 2*chunkMin {
		writeChunks(bw, r.Findings, o)
	} else {
		p := newPrinter(o.Color)
		for i := range r.Findings {
			p.finding(bw, &r.Findings[i], o.Snippets)
		}
	}
	if !o.Quiet {
		fmt.Fprintln(bw, summaryLine(r))
	}
	return bw.Flush()
}

// printer renders findings; each goroutine has its own (a color.Color is
// not safe to share while it paints).
type printer struct {
	color            bool
	sev              map[finding.Severity]*color.Color
	dim, bold, caret *color.Color
	paintCaret       func(string) string
	snip             snippetLine // the line of the last snippet
}

func newPrinter(on bool) *printer {
	p := &printer{
		color: on,
		sev: map[finding.Severity]*color.Color{
			finding.Error:   color.New(color.FgRed, color.Bold),
			finding.Warning: color.New(color.FgYellow, color.Bold),
			finding.Note:    color.New(color.FgCyan),
		},
		dim:   color.New(color.Faint),
		bold:  color.New(color.Bold),
		caret: color.New(color.FgGreen, color.Bold),
	}
	p.paintCaret = func(s string) string { return p.paint(p.caret, s) }
	return p
}

func (p *printer) paint(c *color.Color, s string) string {
	if !p.color {
		return s
	}
	c.EnableColor()
	return c.Sprint(s)
}

// finding writes f, its snippet (when src is not nil) and its related places.
func (p *printer) finding(w io.Writer, f *finding.Finding, src LineSource) {
	loc := Sanitize(f.Path)
	if f.Line > 0 {
		loc += ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Column)
	}
	fmt.Fprintf(w, "%s: %s: %s %s\n", p.paint(p.bold, loc), p.paint(p.sev[f.Severity], f.Severity.String()),
		Sanitize(f.Message), p.paint(p.dim, "["+f.Rule+"]"))
	if src != nil {
		writeSnippet(w, src, f, p.paintCaret, &p.snip)
	}
	for _, rel := range f.Related {
		rloc := Sanitize(rel.Path)
		if rel.Line > 0 {
			rloc += ":" + strconv.Itoa(rel.Line) + ":" + strconv.Itoa(rel.Column)
		}
		fmt.Fprintf(w, "    %s: %s\n", rloc, Sanitize(rel.Message))
	}
}

// A chunk of findings rendered by one goroutine ends at a change of file
// once it holds chunkMin findings (a file's lines are read once, forward,
// by one line source), and at chunkMax whatever the file.
const (
	chunkMin = 64
	chunkMax = 1024
)

// writeChunks renders fs in chunks on o.Jobs goroutines, each with a line
// source of its own, and writes the chunks in order: at most 2*o.Jobs
// chunks wait to be written, so memory stays bounded whatever the number
// of findings. The output is the one the serial loop writes.
func writeChunks(w io.Writer, fs []finding.Finding, o TextOptions) {
	type job struct {
		fs  []finding.Finding
		out chan []byte
	}
	jobs := make(chan job)
	order := make(chan chan []byte, 2*o.Jobs)
	var wg sync.WaitGroup
	for range o.Jobs {
		wg.Go(func() {
			src, done := o.OpenSnippets()
			defer done()
			p := newPrinter(o.Color)
			for j := range jobs {
				var b bytes.Buffer
				for i := range j.fs {
					p.finding(&b, &j.fs[i], src)
				}
				j.out <- b.Bytes()
			}
		})
	}
	go func() {
		defer close(jobs)
		defer close(order)
		for start := 0; start < len(fs); {
			end := start + 1
			for end < len(fs) && end-start < chunkMax && (end-start < chunkMin || fs[end].Path == fs[end-1].Path) {
				end++
			}
			out := make(chan []byte, 1)
			order <- out
			jobs <- job{fs[start:end], out}
			start = end
		}
	}()
	for out := range order {
		_, _ = w.Write(<-out) // a write error stays in w (a bufio.Writer): Flush returns it
	}
	wg.Wait()
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
	if s.Unlisted > 0 {
		line += " (" + strconv.Itoa(s.Unlisted) + " not listed: --max-per-file)"
	}
	return line
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Sanitize makes untrusted text safe for a terminal and a CI log: control
// characters (C0, DEL, C1, and bidirectional overrides) and invalid UTF-8
// are escaped Go-style, so no escape sequence from a transcript reaches the
// terminal, and so are the ':' and '[' that would make a GitHub Actions
// workflow command of it (workflow.go).
func Sanitize(s string) string {
	clean := true
	for _, r := range s {
		if NeedsEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return defuseText(s) // s itself, unless it would form a workflow command
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case NeedsEscape(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return defuseText(b.String())
}

// NeedsEscape reports whether r must not reach a reader raw: U+FFFD (what
// invalid UTF-8 decodes to), control characters, the line and paragraph
// separators, and the bidirectional controls. Every printer of untrusted
// text asks it (fix --diff's escapeBytes too).
func NeedsEscape(r rune) bool {
	if r == utf8.RuneError {
		return true
	}
	if unicode.IsControl(r) {
		return true
	}
	// The line and paragraph separators break a line where editors and
	// some terminals read text (fix --diff escapes them too).
	if r == 0x2028 || r == 0x2029 {
		return true
	}
	// Bidirectional controls can reorder what the terminal shows: the
	// embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069)
	// and the marks (U+200E, U+200F and the Arabic letter mark U+061C).
	return unicode.Is(unicode.Bidi_Control, r)
}
