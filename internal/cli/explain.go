package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/rules"
	"github.com/ccvet/ccvet/internal/suggest"
)

// cmdExplain prints the documentation of the rules named; an unknown id is
// one line on stderr each (with suggestions), after the known ones, and
// makes the exit status 2.
func cmdExplain(args []string, stdout, stderr io.Writer) error {
	fs := subFlags("explain", stdout)
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("explain takes a RULE (see `ccvet rules` for the list)")
	}
	var b strings.Builder
	var unknown []error
	for _, id := range fs.Args() {
		r, ok := rules.Lookup(strings.TrimSpace(id))
		if !ok {
			unknown = append(unknown, unknownRule(id))
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		writeRuleDoc(&b, r, textDoc)
	}
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		return err
	}
	if len(unknown) == 0 {
		return nil
	}
	for _, err := range unknown[:len(unknown)-1] {
		fmt.Fprintln(stderr, "ccvet: "+report.Sanitize(err.Error()))
	}
	return unknown[len(unknown)-1] // the last line, and exit 2
}

// unknownRule is the one-line usage error for a rule id that does not
// exist, with the closest ids as suggestions.
func unknownRule(id string) error {
	if s := closestRules(id, 3); len(s) > 0 {
		return usagef("unknown rule %q; did you mean %s? (see `ccvet rules`)", id, strings.Join(s, ", "))
	}
	return usagef("unknown rule %q (see `ccvet rules`)", id)
}

// docStyle renders the parts of a rule's documentation; writeRuleDoc puts
// them in the order docs/rules.md and `ccvet explain` share.
type docStyle struct {
	heading func(r *rules.Rule) string // the title and the one-line summary
	section func(label, prose string) string
	example func(label, code string) string
}

// writeRuleDoc writes one rule's documentation: what it catches, why it
// matters, a bad and a good example, and how to fix it.
func writeRuleDoc(b *strings.Builder, r *rules.Rule, st docStyle) {
	b.WriteString(st.heading(r))
	b.WriteString(st.section("Why it matters", r.Why))
	if r.Bad != "" {
		b.WriteString(st.example("Bad", r.Bad))
	}
	if r.Good != "" {
		b.WriteString(st.example("Good", r.Good))
	}
	if r.Fix != "" {
		b.WriteString(st.section("Fix", r.Fix))
	}
	fi := rules.FixOf(r.ID)
	b.WriteString(st.section("ccvet fix", fixClassText(fi)))
}

// fixClassText says what `ccvet fix` does about a rule.
func fixClassText(fi rules.FixInfo) string {
	switch fi.Class {
	case rules.FixSafe:
		return "safe: `ccvet fix --write` " + fi.How + "."
	case rules.FixUnsafe:
		return "unsafe (only with `--unsafe`): " + fi.How + "."
	case rules.FixManual:
		return "manual (ccvet never writes this one): " + fi.How + "."
	}
	return "none: " + fi.How + "."
}

// markdownDoc is the style of docs/rules.md.
var markdownDoc = docStyle{
	heading: func(r *rules.Rule) string {
		return fmt.Sprintf("\n## %s\n\n*%s, %s by default.* %s.\n\n", r.ID, r.Severity, defaultState(r), mdText(upperFirst(r.Summary)))
	},
	section: func(label, prose string) string {
		if label == "ccvet fix" {
			return fmt.Sprintf("\n**%s.** %s\n", label, mdText(prose))
		}
		if label == "Fix" {
			return fmt.Sprintf("**%s.** %s\n", label, mdText(prose))
		}
		return fmt.Sprintf("**%s.** %s\n\n", label, mdText(prose))
	},
	example: func(label, code string) string {
		return fmt.Sprintf("%s:\n\n```\n%s\n```\n\n", label, code)
	},
}

// textDoc is the style of `ccvet explain`: plain text for a terminal,
// prose wrapped at 80 columns, examples indented and never wrapped.
var textDoc = docStyle{
	heading: func(r *rules.Rule) string {
		return fmt.Sprintf("%s (%s, %s by default)\n\n%s", r.ID, r.Severity, defaultState(r), wrap(upperFirst(r.Summary)+".", "", 80))
	},
	section: func(label, prose string) string {
		if label == "Fix" {
			label = "How to fix"
		}
		return "\n" + label + ":\n" + wrap(prose, "  ", 80)
	},
	example: func(label, code string) string {
		return "\n" + label + ":\n" + indent(code, "    ")
	},
}

// wrap fills prose into lines of at most width columns (a longer word
// keeps a line of its own), each starting with prefix.
func wrap(prose, prefix string, width int) string {
	var b strings.Builder
	line := prefix
	for _, w := range strings.Fields(prose) {
		if line != prefix && len([]rune(line))+1+len([]rune(w)) > width {
			b.WriteString(line + "\n")
			line = prefix
		}
		if line != prefix {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}

func indent(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(strings.TrimRight(prefix+l, " ") + "\n")
	}
	return b.String()
}

// closestRules returns up to n rule ids close to id: those it is a part of
// (or that are a part of it), then those within a few edits, nearest first.
func closestRules(id string, n int) []string {
	var ids []string
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	return suggest.Closest(id, ids, n)
}
