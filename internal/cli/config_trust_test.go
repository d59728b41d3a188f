//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestConfigProvenance: the configuration in use is named on stderr; one
// found by walking up that anyone may write, or that is a FIFO, is ignored
// with a warning (and never hangs the run).
func TestConfigProvenance(t *testing.T) {
	bad := abs(t, filepath.Join(fixtures, "invalid-json", "bad"))
	dir := cfgIsolate(t)
	cfg := filepath.Join(dir, ".ccvet.yaml")
	cfgWrite(t, cfg, "exclude: ['**']\n")
	_, stderr, code := run(t, "", bad)
	if code != ExitUsage || !strings.Contains(stderr, "using the configuration .ccvet.yaml") {
		t.Errorf("own config: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, _ := run(t, "", "-q", "--allow-empty", bad); strings.Contains(stderr, "using") {
		t.Errorf("-q still names the configuration: %q", stderr)
	}
	if err := os.Chmod(cfg, 0o666); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = run(t, "", bad)
	if code != ExitFindings || !strings.Contains(stderr, "ignoring the configuration .ccvet.yaml: anyone may write it") {
		t.Errorf("world-writable config: exit %d, stderr %q", code, stderr)
	}
	if err := os.Chmod(cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(cfg, 65534, 65534); err == nil { // only root may give a file away
		_, stderr, code = run(t, "", bad)
		if code != ExitFindings || !strings.Contains(stderr, "another user owns it") {
			t.Errorf("another user's config: exit %d, stderr %q", code, stderr)
		}
	}
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(cfg, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan int)
	go func() {
		_, stderr, code := run(t, "", bad)
		if !strings.Contains(stderr, "not a regular file") {
			t.Errorf("FIFO config: stderr %q", stderr)
		}
		done <- code
	}()
	select {
	case code := <-done:
		if code != ExitFindings {
			t.Errorf("FIFO config: exit %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a .ccvet.yaml that is a FIFO hangs the run")
	}
}
