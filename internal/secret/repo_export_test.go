package secret

import "encoding/json"

// StrictRules is the default rule set without the rules' own allowlists
// (the global one stays): the scanner TestRepositoryHoldsNoSecret also
// runs, so that a key a rule's allowlist lets through (gitleaks' sample
// keys, which other scanners do report) is not committed either.
func StrictRules() (*Scanner, error) {
	var doc map[string]any
	if err := json.Unmarshal(rulesJSON, &doc); err != nil {
		return nil, err
	}
	rules, _ := doc["rules"].([]any)
	for _, r := range rules {
		if m, ok := r.(map[string]any); ok && m["id"] != "generic-api-key" {
			delete(m, "allowlists")
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return parse(data)
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
