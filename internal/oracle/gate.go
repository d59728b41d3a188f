//go:build unix

package oracle

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
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
// once on the go command's own standard error, so that the notice shows in
// a plain `go test ./...`, whose package output is hidden when it passes.
func Require(t testing.TB) {
	t.Helper()
	if Enabled() {
		return
	}
	Notice()
	t.Skip(SkipNotice)
}

// Notice prints SkipNotice once per process: on the standard error of the
// parent go command where there is one (Linux), else on this process's.
func Notice() {
	noticeOnce.Do(func() {
		w := os.Stderr
		ppid := os.Getppid()
		if comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", ppid)); err == nil && strings.TrimSpace(string(comm)) == "go" {
			if f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/2", ppid), os.O_WRONLY|os.O_APPEND, 0); err == nil {
				defer f.Close()
				w = f
			}
		}
		fmt.Fprintln(w, SkipNotice)
	})
}

// Versions are the versions the oracle covers: $CCVET_ORACLE_VERSIONS (a
// comma list) when set, else Pinned plus the newest published one.
func Versions(ctx context.Context) ([]string, error) {
	if v := os.Getenv("CCVET_ORACLE_VERSIONS"); v != "" {
		return strings.Split(v, ","), nil
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
