package report

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/finding"
)

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonFinding struct {
	Rule      string         `json:"rule"`
	Severity  string         `json:"severity"`
	Path      string         `json:"path"`
	PathBytes string         `json:"pathBytes,omitempty"`
	Line      int            `json:"line"`
	Column    int            `json:"column"`
	Message   string         `json:"message"`
	Pointer   string         `json:"pointer"`
	UUID      string         `json:"uuid,omitempty"`
	Related   []jsonLocation `json:"related,omitempty"`
	Fix       *finding.Fix   `json:"fix,omitempty"`
}

type jsonLocation struct {
	Path      string `json:"path"`
	PathBytes string `json:"pathBytes,omitempty"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Pointer   string `json:"pointer,omitempty"`
	Message   string `json:"message,omitempty"`
}

// SchemaVersion is the schema_version of the JSON report (and of ccvet
// resume's and sessions' JSON): the shapes in docs/schema/. It grows only
// when a key changes meaning or goes away; new keys may appear without it.
const SchemaVersion = 1

type jsonReport struct {
	SchemaVersion int           `json:"schema_version"`
	Tool          jsonTool      `json:"tool"`
	Findings      []jsonFinding `json:"findings"`
	Summary       Summary       `json:"summary"`
}

// JSONPath is how machine formats carry a path faithfully: the path itself
// when it is valid UTF-8 (JSON escapes its control characters), else its
// text-report form (invalid bytes as \xNN, ambiguous on its own) together
// with the exact bytes in standard base64, for a "pathBytes" field. Two
// paths that differ in any byte never give the same pair.
func JSONPath(p string) (path, pathBytes string) {
	if utf8.ValidString(p) {
		return p, ""
	}
	return Sanitize(p), base64.StdEncoding.EncodeToString([]byte(p))
}

// JSON writes the run as one JSON document (the shape is documented in
// docs/output.md). Paths follow JSONPath. Messages and pointers are written exactly,
// as in SARIF: characters that could hide or reorder text (C1 and
// bidirectional controls) as \u escapes, like the C0 controls encoding/json
// escapes already; only the text and GitHub printers escape them further
// (Sanitize), for a terminal or a log.
func JSON(w io.Writer, r *Run) error {
	head := jsonReport{SchemaVersion: SchemaVersion, Tool: jsonTool{Name: "ccvet", Version: r.Version}, Findings: []jsonFinding{}, Summary: r.Summarize()}
	return encodeSpliced(w, head, "findings", "  ", len(r.Findings), func(k int) any { return jsonFindingOf(&r.Findings[k]) })
}

// jsonFindingOf is f as the JSON report writes it.
func jsonFindingOf(f *finding.Finding) jsonFinding {
	jf := jsonFinding{Rule: f.Rule, Severity: f.Severity.String(), Line: f.Line, Column: f.Column,
		Message: f.Message, Pointer: f.Pointer, UUID: f.UUID, Fix: jsonFix(f.Fix)}
	jf.Path, jf.PathBytes = JSONPath(f.Path)
	for _, rel := range f.Related {
		jl := jsonLocation{Line: rel.Line, Column: rel.Column, Pointer: rel.Pointer, Message: rel.Message}
		jl.Path, jl.PathBytes = JSONPath(rel.Path)
		jf.Related = append(jf.Related, jl)
	}
	return jf
}

// encodeSpliced writes head as EncodeJSON does, its empty list under key
// (a member indented by indent) replaced by the n values item gives: the
// same bytes as one EncodeJSON of head with that list filled in, without
// holding every item and the whole document in memory at once (a run of a
// hundred thousand findings writes 70 MB of JSON).
func encodeSpliced(w io.Writer, head any, key, indent string, n int, item func(k int) any) error {
	var doc bytes.Buffer
	if err := EncodeJSON(&doc, head); err != nil {
		return err
	}
	// A newline inside a JSON string is written \n: this is the member.
	empty := []byte("\n" + indent + `"` + key + `": [],` + "\n")
	at := bytes.Index(doc.Bytes(), empty)
	if at < 0 || n == 0 {
		_, err := w.Write(doc.Bytes())
		return err
	}
	open := at + len(empty) - 3 // just past the '['
	if _, err := w.Write(doc.Bytes()[:open]); err != nil {
		return err
	}
	inner := indent + "  "
	var buf bytes.Buffer
	for k := range n {
		buf.Reset()
		if k > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n" + inner)
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent(inner, "  ")
		if err := enc.Encode(item(k)); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		if _, err := w.Write(escapeInvisible(buf.Bytes())); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(w, "\n"+indent+"]"); err != nil {
		return err
	}
	_, err := w.Write(doc.Bytes()[open+1:]) // from the ',' after the list
	return err
}

// EncodeJSON writes v as indented JSON the way the JSON report is written:
// no HTML escaping, and the characters that could hide or reorder text (DEL,
// C1 and bidirectional controls, which encoding/json leaves raw) as \u
// escapes. Every JSON document built from transcript strings goes through it
// (ccvet stats, sessions and request), so none carries them raw.
func EncodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeInvisible(buf.Bytes()))
	return err
}

// EscapeJSON returns the JSON document b with DEL, C1 and bidirectional
// controls written as \u escapes (the same JSON value, safe to print).
func EscapeJSON(b []byte) []byte { return escapeInvisible(b) }

// jsonFix gives a fix an empty edit list rather than null.
func jsonFix(f *finding.Fix) *finding.Fix {
	if f == nil || f.Edits != nil {
		return f
	}
	c := *f
	c.Edits = []edit.Edit{}
	return &c
}
