package cli

import (
	"runtime/debug"
	"strings"
)

// versionOf formats the version of a build:
//
//   - `go install github.com/ccvet/ccvet/cmd/ccvet@v0.1.0`: "v0.1.0" (a
//     module build carries no VCS information);
//   - `go build` in a checkout at a tag: "v0.1.0 (0123456789ab)"; with
//     uncommitted changes, "v0.1.0+dirty (0123456789ab)";
//   - `go build` in a checkout between tags: Go's pseudo-version, which
//     holds the revision already ("v0.0.0-20261122003255-0123456789ab");
//   - no VCS stamp (-buildvcs=false, or a copy without .git): "(devel)", or
//     "(devel) (0123456789ab-dirty)" when only the stamp knows the revision.
func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	short := rev[:min(12, len(rev))]
	if short == "" || strings.Contains(v, short) {
		return v
	}
	if dirty && !strings.HasSuffix(v, "+dirty") {
		short += "-dirty"
	}
	return v + " (" + short + ")"
}
