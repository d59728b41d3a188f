//go:build unix

package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// ptyDriver runs a command under a pseudo-terminal (Python's pty module: no
// Go dependency for one test-only use), sends keystrokes and pauses from
// $ORACLE_STEPS, and copies the screen to a log.
const ptyDriver = `import os, pty, sys, time, select, json, signal, fcntl, termios, struct
log = open(sys.argv[1], 'wb')
cmd = sys.argv[2:]
steps = json.loads(os.environ.pop('ORACLE_STEPS'))
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(cmd[0], cmd, os.environ)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 50, 160, 0, 0))
seen = b''
def pump(t, until=None, until_file=None):
    global seen
    end = time.time() + t
    while time.time() < end:
        if until and any(u.encode() in seen for u in until):
            seen = b''
            return True
        if until_file and os.path.exists(until_file):
            return True
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                d = os.read(fd, 65536)
            except OSError:
                return False
            if not d:
                return False
            log.write(d); log.flush()
            seen = (seen + d)[-200000:]
    return True
for st in steps:
    if 'wait' in st and not pump(st['wait'], st.get('until'), st.get('untilFile')):
        break
    if 'send' in st:
        for ch in st['send']:
            os.write(fd, ch.encode())
            time.sleep(0.002)
        pump(0.2)
pump(1)
for sig in (signal.SIGTERM, signal.SIGKILL):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        break
    time.sleep(1)
os.waitpid(pid, 0)
`

// Key is one step of an interactive run: text to type, then a pause.
type Key struct {
	Send string  `json:"send,omitempty"`
	Wait float64 `json:"wait,omitempty"` // seconds
	// Until ends the wait early once the screen has shown one of these
	// texts since the last step, UntilFile once that file exists.
	Until     []string `json:"until,omitempty"`
	UntilFile string   `json:"untilFile,omitempty"`
}

// MarkWhenAnswered makes the stand-in create the file path once it has sent
// a reply containing text (for Key.UntilFile).
func (e *Env) MarkWhenAnswered(text, path string) {
	e.Server.OnRequest(func(r Request) {
		if strings.Contains(string(r.Reply), text) {
			_ = os.WriteFile(path, nil, 0o644)
		}
	})
}

// SeedInteractive writes Root/.claude.json so that an interactive run skips
// onboarding, trusts Work and accepts the stand-in's API key.
func (e *Env) SeedInteractive() error {
	key := "sk-ant-oracle-0000000000000000000000000000"
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		"theme":                  "dark",
		"numStartups":            5,
		"customApiKeyResponses":  map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
		"projects": map[string]any{e.Work: map[string]any{
			"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true, "allowedTools": []string{}}},
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(e.Root, ".claude.json"), b, 0o600)
}

// RunPTY runs claude interactively under a pseudo-terminal, typing keys.
// It needs python3; the screen goes to Dir/pty-N.log.
func (e *Env) RunPTY(ctx context.Context, keys []Key, args ...string) (RunRecord, error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return RunRecord{}, errors.New("oracle: python3 not found (needed for the pseudo-terminal)")
	}
	drv := filepath.Join(e.Tmp, "oracle-pty.py")
	if err := os.WriteFile(drv, []byte(ptyDriver), 0o644); err != nil {
		return RunRecord{}, err
	}
	steps, _ := json.Marshal(keys)
	logf := filepath.Join(e.Dir, fmt.Sprintf("pty-%d.log", len(e.Runs)+1))
	full := append([]string{"--allowedTools=" + AllowedTools}, args...)
	cmd := exec.CommandContext(ctx, py, append([]string{drv, logf, e.Bin}, full...)...)
	cmd.Dir = e.Work
	env := e.Environ()
	for i, kv := range env {
		if strings.HasPrefix(kv, "TERM=") {
			env[i] = "TERM=xterm-256color"
		}
	}
	cmd.Env = append(env, "ORACLE_STEPS="+string(steps))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var total float64
	for _, k := range keys {
		total += k.Wait + 0.5
	}
	rec := RunRecord{Args: append([]string{"(pty)"}, full...)}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return rec, err
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Duration(total+30) * time.Second):
		rec.TimedOut = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	rec.Duration = time.Since(start)
	rec.Exit = cmd.ProcessState.ExitCode()
	e.Runs = append(e.Runs, rec)
	return rec, nil
}
