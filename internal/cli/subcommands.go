package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ccvet/ccvet/internal/rules"
	"github.com/ccvet/ccvet/internal/schema"
	"github.com/ccvet/ccvet/internal/suggest"
)

// cmdRules prints the rule catalogue.
func cmdRules(args []string, stdout io.Writer) error {
	fs := subFlags("rules", stdout)
	format := fs.StringP("format", "f", "text", "text, json or markdown")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	all := rules.All()
	switch *format {
	case "json":
		type jr struct {
			ID       string `json:"id"`
			Severity string `json:"severity"`
			Enabled  bool   `json:"enabled"`
			Strict   bool   `json:"strict,omitempty"`
			Summary  string `json:"summary"`
			Why      string `json:"why"`
			Bad      string `json:"bad"`
			Good     string `json:"good"`
			Fix      string `json:"fix"`
			Since    string `json:"since"`
		}
		out := []jr{}
		for _, r := range all {
			out = append(out, jr{r.ID, r.Severity.String(), r.Enabled, r.Strict, r.Summary, r.Why, r.Bad, r.Good, r.Fix, r.Since})
		}
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "text":
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RULE\tSEVERITY\tDEFAULT\tSUMMARY")
		for _, r := range all {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, defaultState(r), r.Summary)
		}
		return tw.Flush()
	case "markdown":
		return rulesMarkdown(stdout, all)
	}
	return usagef("rules --format: want text, json or markdown, got %q", *format)
}

// cmdSchema prints an embedded schema, or lists them.
func cmdSchema(args []string, stdout io.Writer) error {
	fs := subFlags("schema", stdout)
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stdout, strings.Join(schema.Names(), "\n"))
		return nil
	}
	if fs.NArg() > 1 {
		return usagef("schema takes one TYPE")
	}
	src, ok := schema.Source(fs.Arg(0))
	if !ok {
		if near := suggest.Closest(fs.Arg(0), schema.Names(), 3); len(near) > 0 {
			return usagef("no schema named %q; did you mean %s? (run `ccvet schema` for the list)", fs.Arg(0), strings.Join(near, ", "))
		}
		return usagef("no schema named %q (run `ccvet schema` for the list)", fs.Arg(0))
	}
	_, err := stdout.Write(withVersions(fs.Arg(0), src))
	return err
}

// withVersions adds to an entry type's schema text an "x-versions" member:
// the Claude Code versions seen writing the type and each of its fields,
// as "since" (first seen) and "until" (last seen, given only when it is
// older than the newest version seen writing the type: the field stopped
// being written), or "unseen" when no sampled version was seen writing the
// type. The result stays one JSON document.
func withVersions(name string, src []byte) []byte {
	if strings.Contains(name, "/") || name == "history" || name == "todos" {
		return src
	}
	end := bytes.LastIndexByte(src, '}')
	if end < 0 {
		return src
	}
	var b bytes.Buffer
	b.Write(bytes.TrimRight(src[:end], " \n"))
	b.WriteString(",\n  \"x-versions\": ")
	r, ok := schema.TypeVersions(name)
	if !ok {
		b.WriteString(`"unseen: named by Claude Code 2.1.330, not yet seen written"`)
		b.WriteString("\n}\n")
		return b.Bytes()
	}
	span := func(f schema.Range) string {
		if f.Last == r.Last {
			return fmt.Sprintf("{\"since\": %q}", f.First)
		}
		return fmt.Sprintf("{\"since\": %q, \"until\": %q}", f.First, f.Last)
	}
	fmt.Fprintf(&b, "{\n    \"type\": %s,\n    \"fields\": {", span(r))
	names, ranges := schema.VersionFields(name)
	for i, f := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n      %q: %s", f, span(ranges[f]))
	}
	b.WriteString("\n    }\n  }\n}\n")
	return b.Bytes()
}

// severityDoctrine is how every rule picks a finding's severity: stated
// once, at the top of docs/rules.md, and checked against the real reader
// by TestLintAgreesWithRealReader (CCVET_ORACLE=1).
const severityDoctrine = "## How severe a finding is\n\n" +
	"A finding's severity is what the reader of Claude Code does with the file, judged by default " +
	"for today's reader: the newest version ccvet has measured against the real program " +
	"(docs/reader-behaviour.md), since users upgrade and that is the reader that will load the file.\n\n" +
	"- **error**: the resume fails, the API would reject the request, the reader leaves out " +
	"conversation the healthy file gives, or bytes are destroyed (a torn line, a NUL run, a line " +
	"that is not JSON, a message whose content is gone);\n" +
	"- **warning**: the reader repairs it in memory and loses nothing (bridges a gap, adds a result, " +
	"re-attaches one, replaces a character), or it is a risk the table does not measure;\n" +
	"- **note**: nothing changes for the reader (data, not damage; a field nothing reads on resume).\n\n" +
	"`--reader-version V` (or `reader-version:` in `.ccvet.yaml`) judges for a pinned older reader " +
	"instead. Messages still name what older readers do when it differs (\"2.1.110 to before 2.1.330: " +
	"drops the call\"). `--strict` makes every schema problem an error. Two choices follow from this: " +
	"a session that stopped while a tool ran is a **note** for today's reader (2.1.330 and later keep " +
	"the call and add an is_error result, as Claude Code records an interrupted tool itself: nothing is " +
	"lost and nothing needs doing; a note rather than no finding, so that the message still says that " +
	"readers before 2.1.330 drop the call, an error under `--reader-version 2.1.110`); a call left " +
	"pending under a new prompt is a **warning** (every reader measured drops the call and keeps what " +
	"follows; nothing needs doing).\n\n"

// rulesMarkdown renders the catalogue as docs/rules.md.
func rulesMarkdown(w io.Writer, all []*rules.Rule) error {
	var b strings.Builder
	b.WriteString("# ccvet rules\n\n")
	b.WriteString("Generated by `ccvet rules --format markdown`; do not edit by hand " +
		"(`go test ./internal/cli -run TestRulesDoc -update` rewrites it).\n\n")
	b.WriteString(severityDoctrine)
	b.WriteString("| rule | severity | default | catches |\n|---|---|---|---|\n")
	for _, r := range all {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", r.ID, r.ID, r.Severity, defaultState(r), mdCell(r.Summary))
	}
	for _, r := range all {
		writeRuleDoc(&b, r, markdownDoc) // shared with ccvet explain (explain.go)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdText escapes < and > in prose so that placeholders like <sessionId>
// show on GitHub, leaving code spans as they are.
func mdText(s string) string {
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(parts[i])
	}
	return strings.Join(parts, "`")
}

func defaultState(r *rules.Rule) string {
	switch {
	case r.Enabled:
		return "on"
	case r.Strict:
		return "off (on with --strict)"
	}
	return "off"
}

func mdCell(s string) string {
	return strings.NewReplacer("|", "\\|", "<", "&lt;", ">", "&gt;").Replace(s)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
