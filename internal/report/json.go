package report

import (
	"encoding/json"
	"io"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/fix/edit"
)

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonFinding struct {
	Rule     string             `json:"rule"`
	Severity string             `json:"severity"`
	Path     string             `json:"path"`
	Line     int                `json:"line"`
	Column   int                `json:"column"`
	Message  string             `json:"message"`
	Pointer  string             `json:"pointer"`
	UUID     string             `json:"uuid,omitempty"`
	Related  []finding.Location `json:"related,omitempty"`
	Fix      *finding.Fix       `json:"fix,omitempty"`
}

type jsonReport struct {
	Tool     jsonTool      `json:"tool"`
	Findings []jsonFinding `json:"findings"`
	Summary  Summary       `json:"summary"`
}

// JSON writes the run as one JSON document (the shape is documented in the README).
func JSON(w io.Writer, r *Run) error {
	out := jsonReport{Tool: jsonTool{Name: "ccvet", Version: r.Version}, Findings: []jsonFinding{}, Summary: r.Summarize()}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, jsonFinding{Rule: f.Rule, Severity: f.Severity.String(), Path: f.Path,
			Line: f.Line, Column: f.Column, Message: f.Message, Pointer: f.Pointer, UUID: f.UUID, Related: f.Related, Fix: jsonFix(f.Fix)})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// jsonFix gives a fix an empty edit list rather than null.
func jsonFix(f *finding.Fix) *finding.Fix {
	if f == nil || f.Edits != nil {
		return f
	}
	c := *f
	c.Edits = []edit.Edit{}
	return &c
}
