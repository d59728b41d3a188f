// Package reporttest reads ccvet's output as the tools that consume it do, for tests.
package reporttest

import (
	"strings"
	"unicode"
)

// WorkflowCommand reports whether the GitHub Actions runner would read
// line as a workflow command, as actions/runner's ActionCommand parses
// one: "::NAME ...::" at its start once its leading white space is
// trimmed, or "##[NAME ...]" anywhere in it (the legacy form). Every
// command the runner registers is named with lowercase letters and
// dashes: any such name counts here.
func WorkflowCommand(line string) bool {
	if t, ok := strings.CutPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::"); ok {
		if info, _, ok := strings.Cut(t, "::"); ok && commandName(info) {
			return true
		}
	}
	for rest := line; ; {
		_, after, ok := strings.Cut(rest, "##[")
		if !ok {
			return false
		}
		if info, _, ok := strings.Cut(after, "]"); ok && commandName(info) {
			return true
		}
		rest = after
	}
}

// commandName reports whether a command's info (its name, then a space
// and its properties) starts with a name the runner could register.
func commandName(info string) bool {
	n, _, _ := strings.Cut(info, " ")
	return n != "" && strings.Trim(n, "abcdefghijklmnopqrstuvwxyz-") == ""
}
