package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// NULBytes reports raw NUL bytes in a line: the zero-filled block an
// interrupted append leaves on some file systems (issue 49876).
var NULBytes = register(&Rule{
	ID:       "nul-bytes",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a run of NUL bytes (what an interrupted append leaves behind)",
	Why: "After a crash some file systems leave the end of the file filled with zero bytes. " +
		"Claude Code's reader stops at them, so every entry after the run is lost on resume.",
	Bad:  `{"parentUuid":null,…}\x00\x00\x00\x00{"parentUuid":"…",…}`,
	Good: `{"parentUuid":null,…}` + "\n" + `{"parentUuid":"…",…}`,
	Fix:  "Cut the NUL run out of the file; check whether the entry it overwrote can be recovered.",
	Line: func(r *Rule, l *model.Line) {
		if l.NUL < 0 {
			return
		}
		n := 0
		for i := l.NUL; i < len(l.Raw) && l.Raw[i] == 0; i++ {
			n++
		}
		msg := "run of " + itoa(n) + " NUL byte"
		if n != 1 {
			msg += "s"
		}
		l.Report(r, l.NUL, msg+"; Claude Code's reader stops here")
	},
})
