package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/internal/finding"
)

// GitHub writes one GitHub Actions workflow command per finding, which the
// runner turns into an annotation on the file and line:
//
//	::error file=PATH,line=L,col=C,title=RULE::MESSAGE
//
// (warning and notice for the other severities; no line and col for a
// finding about a whole file, no col for one on a line but at no column).
// Related places follow the message on lines of their own. Paths are as in
// every report; for the annotations to land on the right files they must be
// relative to the repository root, which the CLI ensures by starting each
// path with its argument. Unless quiet, the summary line follows as plain
// log text.
func GitHub(w io.Writer, r *Run, quiet bool) error {
	bw := bufio.NewWriter(w)
	for _, f := range r.Findings {
		var b strings.Builder
		b.WriteString("::")
		b.WriteString(githubLevel(f.Severity))
		b.WriteString(" file=")
		b.WriteString(githubProperty(lineSeparators(Sanitize(f.Path))))
		if f.Line > 0 {
			b.WriteString(",line=" + strconv.Itoa(f.Line))
			if f.Column > 0 { // a line but no column: unreadable part-way
				b.WriteString(",col=" + strconv.Itoa(f.Column))
			}
		}
		b.WriteString(",title=")
		b.WriteString(githubProperty(f.Rule))
		b.WriteString("::")
		// Control characters are escaped before the workflow-command
		// escaping, so none reaches the log raw; the newlines added here
		// are the only ones, and they are encoded as %0A.
		msg := Sanitize(f.Message)
		for _, rel := range f.Related {
			loc := Sanitize(rel.Path)
			if rel.Line > 0 {
				loc += ":" + strconv.Itoa(rel.Line) + ":" + strconv.Itoa(rel.Column)
			}
			msg += "\n" + loc + ": " + Sanitize(rel.Message)
		}
		b.WriteString(githubData(lineSeparators(msg)))
		b.WriteByte('\n')
		if _, err := bw.WriteString(b.String()); err != nil {
			return err
		}
	}
	if !quiet {
		fmt.Fprintln(bw, summaryLine(r))
	}
	return bw.Flush()
}

func githubLevel(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "notice"
}

// githubData escapes a workflow command's message as the runner expects
// (see toolkit's command.ts escapeData).
var githubData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace

// githubProperty escapes a workflow command's property value (escapeProperty).
var githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace

// lineSeparators escapes U+2028 and U+2029, which Sanitize lets through (they
// are not control characters) but which some log viewers break lines at.
var lineSeparators = strings.NewReplacer("\u2028", `\u2028`, "\u2029", `\u2029`).Replace
