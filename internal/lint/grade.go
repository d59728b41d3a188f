package lint

import "github.com/ccvet/ccvet/internal/finding"

// On reports whether rule id runs in this engine's configuration.
func (e *Engine) On(id string) bool { return e.on[id] }

// Grade applies the run's rule selection and severity overrides to a finding
// made outside the engine (unused-ignore, from the configuration): it returns
// the finding as it is to be reported, and false when it is not reported.
func (e *Engine) Grade(f finding.Finding) (finding.Finding, bool) {
	c := &collector{e: e}
	c.emit(f)
	if len(c.out) == 0 {
		return f, false
	}
	return c.out[0], true
}
