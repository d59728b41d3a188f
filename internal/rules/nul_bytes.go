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
		"The bytes of the entry that stood there are destroyed. Measured on 2.1.110, 2.1.330 and 2.1.332: the " +
		"reader skips that line and reads on (the entries after it are kept); the lost entry's child " +
		"then has a missing parent, which 2.1.94 and later bridge when it was written within 5 s " +
		"(see orphan-parent), and a call whose result was on the line is dropped.",
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
		l.Report(r, l.NUL, msg+"; the reader skips this line and reads on: the entry it held is lost, the entries after it are kept")
	},
})
