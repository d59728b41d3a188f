package reporttest

import "testing"

func TestWorkflowCommand(t *testing.T) {
	for line, want := range map[string]bool{
		"::error file=a,line=1::m":         true,
		"  \u00a0::warning::m":             true,
		"::set-output name=x::y":           true,
		"::1:3: error: x::y [schema]":      false, // "1:3:" names no command
		":: error::x":                      false,
		"::error without end":              false,
		"x ##[set-output name=v]pass":      true,
		"##[stop-commands]tok":             true,
		`##\x5bwarning]x`:                  false,
		"##[ not a name]":                  false,
		"a::error::x":                      false,
		"path:1:2: error: ##[x y [schema]": true,
	} {
		if got := WorkflowCommand(line); got != want {
			t.Errorf("WorkflowCommand(%q) = %v, want %v", line, got, want)
		}
	}
}
