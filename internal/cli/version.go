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
//   - no version and no VCS stamp (go run, -buildvcs=false, a copy without
//     .git): "(built without version information)";
//   - no version but a stamp (older Go): "(devel) (0123456789ab-dirty)".
func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	if v == "(devel)" && !hasRevision(bi) {
		return noVersion
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

// noVersion is the version of a build that carries none.
const noVersion = "(built without version information)"

func hasRevision(bi *debug.BuildInfo) bool {
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && s.Value != "" {
			return true
		}
	}
	return false
}
