//go:build unix

package oracle

import (
	"os"
	"testing"
)

// shared holds the sessions played during this test process.
var shared *Sessions

func TestMain(m *testing.M) {
	dir := os.Getenv("CCVET_ORACLE_KEEP")
	tmp := dir == ""
	if tmp && Enabled() {
		var err error
		if dir, err = os.MkdirTemp("", "ccvet-oracle-"); err != nil {
			panic(err)
		}
	}
	shared = NewSessions(dir)
	code := m.Run()
	if tmp && dir != "" {
		_ = os.RemoveAll(dir)
	}
	os.Exit(code)
}
