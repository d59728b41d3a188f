package secret

import (
	"encoding/json"
	"regexp"
)

// keyLiteral is gen_rules.py's KEY_LITERAL: an allowlist regex that is a
// plain literal this long is a sample key.
var keyLiteral = regexp.MustCompile(`^[A-Za-z0-9_-]{20,}$`)

// StrictRules is the default rule set with no allowlist entry that lists
// keys by value (the hashes, and any key-like literal regex): the scanner
// of TestRepositoryHoldsNoSecret, so that a sample key a rule lets
// through (gitleaks' 16 Google API keys), a key to other scanners, is not
// committed either. The allowlists of shapes (templates, EXAMPLE, $VAR)
// stay.
func StrictRules() (*Scanner, error) {
	var doc map[string]any
	if err := json.Unmarshal(rulesJSON, &doc); err != nil {
		return nil, err
	}
	rules, _ := doc["rules"].([]any)
	for _, r := range rules {
		rm, _ := r.(map[string]any)
		als, _ := rm["allowlists"].([]any)
		for _, a := range als {
			m, _ := a.(map[string]any)
			delete(m, "hashes")
			res, _ := m["regexes"].([]any)
			kept := []any{}
			for _, re := range res {
				if s, _ := re.(string); !keyLiteral.MatchString(s) {
					kept = append(kept, re)
				}
			}
			m["regexes"] = kept
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return parse(data)
}

// AllowHashes reports whether some allowlist of r lists keys by hash.
func AllowHashes(r *Rule) bool {
	if r.compile() != nil {
		return false
	}
	for _, a := range r.allow {
		if len(a.hashes) > 0 {
			return true
		}
	}
	return false
}

// Parse compiles a rule file.
func Parse(data []byte) (*Scanner, error) { return parse(data) }

// AllowCounts returns, for each of r's allowlists, how many regexes and
// hashes it holds.
func AllowCounts(r *Rule) (regexes, hashes []int, err error) {
	if err := r.compile(); err != nil {
		return nil, nil, err
	}
	for _, a := range r.allow {
		regexes = append(regexes, len(a.regexes))
		hashes = append(hashes, len(a.hashes))
	}
	return regexes, hashes, nil
}
