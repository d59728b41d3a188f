//go:build unix

package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Package is the npm package of Claude Code.
const Package = "@anthropic-ai/claude-code"

// Pinned are the versions the oracle always covers; Newest adds the newest
// published one at test time.
var Pinned = []string{"1.0.128", "2.0.76", "2.1.110", "2.1.330"}

// AllowedTools is passed as --allowedTools=... (the = form: with a space the
// list swallows the prompt).
const AllowedTools = "Bash,Write,Edit,MultiEdit,Read,Glob,Grep,Agent,Task,TodoWrite"

var versionRE = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

// CacheRoot is where versions are installed, outside any checkout:
// $CCVET_CLAUDE_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/ccvet/claude-code.
func CacheRoot() (string, error) {
	if d := os.Getenv("CCVET_CLAUDE_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home := os.Getenv("HOME")
		if home == "" {
			return "", errors.New("oracle: neither CCVET_CLAUDE_CACHE, XDG_CACHE_HOME nor HOME is set")
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "ccvet", "claude-code"), nil
}

// Installed returns the claude binary of version v in the cache, if there.
func Installed(v string) (string, bool) {
	root, err := CacheRoot()
	if err != nil {
		return "", false
	}
	bin := filepath.Join(root, v, "node_modules", ".bin", "claude")
	if _, err := os.Stat(bin); err != nil {
		return "", false
	}
	return bin, true
}

var installMu sync.Mutex

// Install returns the claude binary of version v, installing it with npm
// into CacheRoot()/v first when missing (into a temporary folder renamed
// into place, so a cut install is never reused).
func Install(ctx context.Context, v string) (string, error) {
	if !versionRE.MatchString(v) {
		return "", fmt.Errorf("oracle: bad version %q", v)
	}
	installMu.Lock()
	defer installMu.Unlock()
	if bin, ok := Installed(v); ok {
		return bin, nil
	}
	root, err := CacheRoot()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	// CI runs the oracle's test packages in processes side by side: one
	// installs at a time, and a version another process installed while
	// this one waited is taken as it is (removing it would pull it from
	// under a claude that runs from it).
	unlock, err := lockCache(root)
	if err != nil {
		return "", err
	}
	defer unlock()
	if bin, ok := Installed(v); ok {
		return bin, nil
	}
	tmp, err := os.MkdirTemp(root, ".install-"+v+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "npm", "install", "--prefix", tmp, "--no-save", "--no-audit",
		"--no-fund", "--loglevel=error", Package+"@"+v)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("oracle: npm install %s@%s: %v\n%s", Package, v, err, out)
	}
	dst := filepath.Join(root, v)
	_ = os.RemoveAll(dst)
	if err := os.Rename(tmp, dst); err != nil {
		return "", err
	}
	bin, ok := Installed(v)
	if !ok {
		return "", fmt.Errorf("oracle: %s@%s installed without node_modules/.bin/claude", Package, v)
	}
	return bin, nil
}

// lockCache takes the cache's install lock (an exclusive flock on
// root/.install.lock, held until unlock; the kernel drops it if the
// process dies).
func lockCache(root string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(root, ".install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("oracle: locking %s: %w", f.Name(), err)
	}
	return func() { f.Close() }, nil
}

// Newest asks the npm registry for the newest published version.
func Newest(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "npm", "view", Package, "version").Output()
	if err != nil {
		return "", fmt.Errorf("oracle: npm view %s version: %w", Package, err)
	}
	v := strings.TrimSpace(string(out))
	if !versionRE.MatchString(v) {
		return "", fmt.Errorf("oracle: npm view answered %q", v)
	}
	return v, nil
}

// Env is one isolated place to run Claude Code: Root is CLAUDE_CONFIG_DIR
// (the data root it writes), Home its HOME (npm logs and other tools' files
// land there, not in the data root), Work the working folder.
type Env struct {
	Version string
	Bin     string
	Dir     string // holds root/, home/, work/, tmp/
	Root    string
	Home    string
	Work    string
	Tmp     string
	Server  *Server
	Runs    []RunRecord
}

// NewEnv makes dir/root, dir/home, dir/work and dir/tmp (dir must be outside the real
// home's ~/.claude; it is usually a test's TempDir).
func NewEnv(version, bin, dir string, srv *Server) (*Env, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	e := &Env{Version: version, Bin: bin, Dir: dir, Server: srv,
		Root: filepath.Join(dir, "root"), Home: filepath.Join(dir, "home"), Work: filepath.Join(dir, "work"), Tmp: filepath.Join(dir, "tmp")}
	for _, d := range []string{e.Root, e.Home, e.Work, e.Tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// Environ is the whole environment a run gets (nothing else is inherited
// but PATH).
func (e *Env) Environ() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + e.Home,
		"CLAUDE_CONFIG_DIR=" + e.Root,
		"XDG_CONFIG_HOME=" + filepath.Join(e.Home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(e.Home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(e.Home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(e.Home, ".local", "state"),
		"TMPDIR=" + e.Tmp,
		"SHELL=/bin/bash",
		"LANG=C.UTF-8",
		"TERM=dumb",
		"USER=oracle",
		"ANTHROPIC_BASE_URL=" + e.Server.URL,
		"ANTHROPIC_API_KEY=sk-ant-oracle-0000000000000000000000000000",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_BUG_COMMAND=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1",
	}
}

// RunOpts is one `claude -p` invocation.
type RunOpts struct {
	Prompt  string
	Args    []string      // extra flags, e.g. "--resume", id
	Timeout time.Duration // default 120 s
	// KillWhen, polled every 100 ms, makes the run end by SIGKILL to its
	// process group when it returns true.
	KillWhen func() bool
}

// RunRecord is what one run did.
type RunRecord struct {
	Args      []string      `json:"args"`
	Exit      int           `json:"exit"`
	Killed    bool          `json:"killed,omitempty"`
	TimedOut  bool          `json:"timedOut,omitempty"`
	Duration  time.Duration `json:"durationNs"`
	SessionID string        `json:"sessionId,omitempty"`
	IsError   bool          `json:"isError,omitempty"`
	Result    string        `json:"result,omitempty"`
	Stderr    string        `json:"stderr,omitempty"`
	Stdout    string        `json:"stdout,omitempty"`
}

// Run runs `claude -p PROMPT --output-format json --allowedTools=... ARGS`.
func (e *Env) Run(ctx context.Context, o RunOpts) (RunRecord, error) {
	if o.Timeout == 0 {
		o.Timeout = 120 * time.Second
	}
	args := []string{"-p", o.Prompt, "--output-format", "json", "--allowedTools=" + AllowedTools}
	args = append(args, o.Args...)
	cmd := exec.Command(e.Bin, args...)
	cmd.Dir = e.Work
	cmd.Env = e.Environ()
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	rec := RunRecord{Args: append([]string{"-p", shorten(o.Prompt)}, args[2:]...)}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return rec, err
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(o.Timeout)
	defer timer.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var werr error
loop:
	for {
		select {
		case werr = <-done:
			break loop
		case <-ctx.Done():
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			werr = <-done
			rec.TimedOut = true
			break loop
		case <-timer.C:
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			werr = <-done
			rec.TimedOut = true
			break loop
		case <-tick.C:
			if o.KillWhen != nil && o.KillWhen() {
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
				werr = <-done
				rec.Killed = true
				break loop
			}
		}
	}
	// Whatever the run left behind (a background shell, a stuck child) goes.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	rec.Duration = time.Since(start)
	rec.Exit = cmd.ProcessState.ExitCode()
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		return rec, werr
	}
	rec.Stderr = limit(stderr.String())
	out := stdout.Bytes()
	var res struct {
		SessionID string `json:"session_id"`
		IsError   bool   `json:"is_error"`
		Result    string `json:"result"`
	}
	if i := bytes.LastIndexByte(bytes.TrimRight(out, "\n"), '\n'); i >= 0 {
		out = out[i+1:]
	}
	if json.Unmarshal(out, &res) == nil {
		rec.SessionID, rec.IsError, rec.Result = res.SessionID, res.IsError, limit(res.Result)
	} else {
		rec.Stdout = limit(stdout.String())
	}
	e.Runs = append(e.Runs, rec)
	return rec, nil
}

func shorten(s string) string {
	if i := strings.Index(s, PlanMarker); i >= 0 {
		return s
	}
	return limit(s)
}

func limit(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "…"
	}
	return s
}

// SessionFiles lists the main session transcripts under Root/projects
// (subagent transcripts left out), sorted by path.
func (e *Env) SessionFiles() []string {
	var out []string
	_ = filepath.WalkDir(filepath.Join(e.Root, "projects"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "subagents" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !strings.HasPrefix(d.Name(), "agent-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// SessionFile returns the transcript of a session id ("" when absent).
func (e *Env) SessionFile(id string) string {
	for _, p := range e.SessionFiles() {
		if filepath.Base(p) == id+".jsonl" {
			return p
		}
	}
	return ""
}
