package rules

import "testing"

func TestEveryRuleHasFixClass(t *testing.T) {
	for _, r := range All() {
		if !HasFixInfo(r.ID) {
			t.Errorf("rule %s has no row in fixInfo (fixclass.go)", r.ID)
		}
	}
	for id := range fixInfo {
		if _, ok := Lookup(id); !ok {
			t.Errorf("fixInfo names unknown rule %s", id)
		}
	}
}
