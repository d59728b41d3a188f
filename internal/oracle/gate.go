//go:build unix

package oracle

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/internal/testnotice"
)

// EnvVar enables the oracle tests: CCVET_ORACLE=1 runs them (installing
// missing versions with npm). Unset or 0, they skip.
const EnvVar = "CCVET_ORACLE"

// SkipNotice is the one line printed when the oracle tests are skipped.
const SkipNotice = "ccvet: oracle tests skipped (the real Claude Code is not run); CCVET_ORACLE=1 go test ./... runs them (needs node and npm, see docs/oracle.md)"

// Enabled reports whether the oracle tests run.
func Enabled() bool {
	v := os.Getenv(EnvVar)
	return v != "" && v != "0"
}

var noticeOnce sync.Once

// Require skips t unless the oracle is enabled (see EnvVar), and says so
// once where a plain `go test ./...`, whose package output is hidden when it
// passes, shows it (internal/testnotice).
func Require(t testing.TB) {
	t.Helper()
	if Enabled() {
		return
	}
	Notice()
	t.Skip(SkipNotice)
}

// Notice says SkipNotice once per process, where a plain `go test ./...`
// shows it (internal/testnotice).
func Notice() {
	noticeOnce.Do(func() { testnotice.Print(SkipNotice) })
}

// Versions are the versions the oracle covers: $CCVET_ORACLE_VERSIONS (a
// comma list) when set, else Pinned plus the newest published one.
func Versions(ctx context.Context) ([]string, error) {
	if v := VersionsOr(); v != nil {
		return v, nil
	}
	out := append([]string(nil), Pinned...)
	newest, err := Newest(ctx)
	if err != nil {
		return nil, err
	}
	for _, v := range out {
		if v == newest {
			return out, nil
		}
	}
	return append(out, newest), nil
}
