//go:build unix

package oracle

import (
	"encoding/json"
	"fmt"
	"strings"
)

// PlanMarker starts the reply plan inside a prompt: the rest of that text
// block, up to the end of the block, is a JSON array of Step.
const PlanMarker = "ORACLE-PLAN:"

// Step is one scripted assistant reply. Text and Tools may both be set; the
// text block comes first. Several tools make parallel tool calls.
type Step struct {
	Text  string `json:"text,omitempty"`
	Tools []Tool `json:"tools,omitempty"`
	// Pad appends this many bytes of filler to Text (to grow a session).
	Pad int `json:"pad,omitempty"`
	// Status, when set, makes the stand-in answer the first Fail requests
	// for this step (at least one) with that HTTP error status and the
	// API's error body (429, 500, 529 carry retry-after: 1), then the
	// step itself: Claude Code's retries, or its API error entry when it
	// gives up first.
	Status int `json:"status,omitempty"`
	Fail   int `json:"fail,omitempty"`
	// Stop replaces the stop reason ("max_tokens", "refusal").
	Stop string `json:"stop,omitempty"`
}

// Tool is one tool_use block. Name "Agent" is sent as "Task" when the
// request offers Task and no Agent (older versions).
type Tool struct {
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

// Prompt returns a prompt carrying the plan after PlanMarker, preceded by a
// short free-text line.
func Prompt(intro string, steps ...Step) string {
	b, err := json.Marshal(steps)
	if err != nil {
		panic(err) // steps hold only JSON-safe values
	}
	return intro + "\n" + PlanMarker + " " + string(b)
}

// Text is a step with a text reply only.
func Text(s string) Step { return Step{Text: s} }

// Call is a step with the given tool calls (parallel when more than one).
func Call(tools ...Tool) Step { return Step{Tools: tools} }

// Bash is a Bash tool call.
func Bash(cmd string) Tool {
	return Tool{Name: "Bash", Input: map[string]any{"command": cmd, "description": "oracle step"}}
}

// Subagent is an Agent (Task) call whose prompt carries its own plan.
func Subagent(steps ...Step) Tool {
	return Tool{Name: "Agent", Input: map[string]any{
		"description":   "oracle subagent",
		"prompt":        Prompt("Subagent task.", steps...),
		"subagent_type": "general-purpose",
	}}
}

// parsePlan reads the plan from one text, or returns ok false when the text
// carries none.
func parsePlan(text string) ([]Step, bool, error) {
	i := strings.Index(text, PlanMarker)
	if i < 0 {
		return nil, false, nil
	}
	rest := strings.TrimSpace(text[i+len(PlanMarker):])
	dec := json.NewDecoder(strings.NewReader(rest))
	var steps []Step
	if err := dec.Decode(&steps); err != nil {
		return nil, true, fmt.Errorf("oracle plan: %w", err)
	}
	return steps, true, nil
}
