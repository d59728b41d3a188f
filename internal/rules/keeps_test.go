package rules

import "testing"

// A project rule without Keeps keeps every transcript of every project
// whole until the project closes: memory then grows with the largest
// project folder again. Each one says which files it needs.
func TestProjectRulesKeep(t *testing.T) {
	for _, r := range All() {
		if r.Project != nil && r.Keeps == nil {
			t.Errorf("rule %s has a Project check and no Keeps", r.ID)
		}
	}
}
