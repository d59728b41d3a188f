//go:build unix

package cli

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/inventory"
	"github.com/ccvet/ccvet/internal/oracle"
	"github.com/ccvet/ccvet/internal/pathenc"
)

// pickerDriver runs a command under a pseudo-terminal for a while, presses
// the down arrow to page through the list, and copies the screen to a file.
const pickerDriver = `import os, pty, sys, time, select, fcntl, termios, struct, signal
log = open(sys.argv[1], 'wb')
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(sys.argv[2], sys.argv[2:], os.environ)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 80, 220, 0, 0))
def pump(t):
    end = time.time() + t
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                d = os.read(fd, 65536)
            except OSError:
                return
            if not d:
                return
            log.write(d); log.flush()
pump(12)
for _ in range(25):
    os.write(fd, b'\x1b[B'); pump(0.25)
pump(2)
for sig in (signal.SIGTERM, signal.SIGKILL):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        break
    time.sleep(1)
os.waitpid(pid, 0)
`

// TestSessionsPickerAgreement drives the real /resume picker of 2.1.110
// and 2.1.330 over the fixture roots (their paths moved into a temporary
// folder) and checks that it shows exactly the sessions ccvet sessions
// says it lists. Opt-in: CCVET_PICKER=1, with the versions installed in
// the oracle's cache (oracle.CacheRoot)
// and python3 for the pseudo-terminal. About 3 minutes.
func TestSessionsPickerAgreement(t *testing.T) {
	if os.Getenv("CCVET_PICKER") == "" {
		t.Skip("set CCVET_PICKER=1 to drive the real /resume picker")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	cache, err := oracle.CacheRoot()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv("CCVET_CLAUDE_CACHE", cache) // before HOME moves to a temp folder
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	versions := []string{inventory.Older, inventory.Newest}
	if v := os.Getenv("CCVET_PICKER_VERSIONS"); v != "" {
		versions = strings.Split(v, ",") // e.g. 2.1.332: judged as the newest modelled
	}
	fixtures := []string{"clean", "hidden", "folders", "picker"}
	if f := os.Getenv("CCVET_PICKER_FIXTURES"); f != "" {
		fixtures = strings.Split(f, ",")
	}
	for _, version := range versions {
		bin, ok := oracle.Installed(version)
		if !ok {
			t.Logf("%s not installed: skipped", version)
			continue
		}
		for _, fixture := range fixtures {
			t.Run(version+"/"+fixture, func(t *testing.T) {
				// A name without '.' or '_': 2.1.330 looks for other
				// spellings of such paths, which is not what is tested here.
				base, err := os.MkdirTemp("", "ccvetpicker")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = os.RemoveAll(base) })
				root := movedRoot(t, fixture, base)
				if fixture == "picker" {
					largeSession(t, root, filepath.Join(base, "dirs", "home", "dev", "app"))
				}
				r := sessionsJSON(t, root)
				dirs := map[string]bool{}
				for _, s := range r.Sessions {
					if s.Cwd != "" {
						dirs[s.Cwd] = true
					}
				}
				for _, dir := range sortedSet(dirs) {
					screen := runPicker(t, py, bin, root, dir)
					for _, s := range r.Sessions {
						inFolder := s.Project == pathenc.Encode(dir)
						if !inFolder && s.Cwd != dir {
							continue // another project's session
						}
						// A session of dir in another folder (another encoding) is not listed.
						want := inFolder && pickerShows(s, version, dir)
						re := regexp.MustCompile(regexp.QuoteMeta(s.Picker.Label) + `($|[^0-9])`)
						if got := re.MatchString(screen); got != want {
							t.Errorf("picker %s in %s: session %s (%q) shown %v, ccvet predicts %v\nscreen lines naming a session: %q",
								version, dir, s.SessionID, s.Picker.Label, got, want, sessionLines(screen))
						}
					}
				}
			})
		}
	}
}

func sessionLines(screen string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if l = strings.TrimSpace(l); strings.Contains(l, "session") && !seen[l] && len(out) < 40 {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// pickerShows is ccvet's prediction for the picker of version run in dir
// (a version after the newest modelled is judged as the newest).
func pickerShows(s inventory.Session, version, dir string) bool {
	newest := version == inventory.Newest || versionAfter(version, inventory.Newest)
	for _, h := range s.Picker.Hidden {
		for _, v := range h.Versions {
			if v == version || newest && v == inventory.Newest {
				return false
			}
		}
	}
	if newest && s.Cwd != "" && s.Cwd != dir {
		for _, n := range s.Picker.Notes {
			if n.Code == inventory.NoteSharedFolder {
				return false
			}
		}
	}
	return true
}

func sortedSet(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// movedRoot copies a fixture root with every path under "/home/dev" or
// "/w" moved under base (which must exist for the picker to run there),
// and each transcript in the folder its new cwd encodes to (capped or
// uncapped, as before).
func movedRoot(t *testing.T, fixture, base string) string {
	t.Helper()
	src := filepath.Join(sessionFixtures, fixture)
	root := filepath.Join(base, "root")
	move := func(p string) string {
		for _, pre := range []string{"/home/dev", "/w/"} {
			if strings.HasPrefix(p, pre) {
				return filepath.Join(base, "dirs", p)
			}
		}
		return p
	}
	rewrite := func(b []byte) []byte {
		s := string(b)
		for _, pre := range []string{`"/home/dev`, `"/w/`} {
			s = strings.ReplaceAll(s, pre, `"`+filepath.Join(base, "dirs")+pre[1:])
		}
		return []byte(s)
	}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if parts[0] == "projects" && len(parts) >= 3 {
			var cwd string
			for _, l := range strings.Split(string(b), "\n") {
				var v struct {
					Cwd string `json:"cwd"`
				}
				if json.Unmarshal([]byte(l), &v) == nil && v.Cwd != "" {
					cwd = v.Cwd
					break
				}
			}
			if cwd == "" {
				cwd = "/home/dev/app" // every fixture folder without a cwd is this one's
			}
			switch parts[1] {
			case pathenc.EncodeUncapped(cwd):
				parts[1] = pathenc.EncodeUncapped(move(cwd))
			default:
				parts[1] = pathenc.Encode(move(cwd))
			}
			if err := os.MkdirAll(move(cwd), 0o755); err != nil {
				return err
			}
		}
		to := filepath.Join(root, filepath.FromSlash(strings.Join(parts, "/")))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, rewrite(b), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Files newest first in a fixed order, like a real store.
	stamp := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			return os.Chtimes(p, stamp, stamp)
		}
		return nil
	})
	return root
}

// runPicker runs `claude --resume` in dir with root as its data root and
// returns the screen's text (escape sequences turned into line breaks).
func runPicker(t *testing.T, py, bin, root, dir string) string {
	t.Helper()
	home := filepath.Join(filepath.Dir(root), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	key := "sk-ant-ccvet-picker-000000000000000000000"
	projects := map[string]any{}
	_ = filepath.WalkDir(filepath.Join(filepath.Dir(root), "dirs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			projects[p] = map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true, "allowedTools": []string{}}
		}
		return nil
	})
	cfg, _ := json.Marshal(map[string]any{"hasCompletedOnboarding": true, "theme": "dark", "numStartups": 5,
		"customApiKeyResponses": map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
		"projects":              projects})
	if err := os.WriteFile(filepath.Join(root, ".claude.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	drv := filepath.Join(filepath.Dir(root), "picker.py")
	if err := os.WriteFile(drv, []byte(pickerDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	logf := filepath.Join(filepath.Dir(root), fmt.Sprintf("screen-%d.log", time.Now().UnixNano()))
	cmd := exec.Command(py, drv, logf, bin, "--resume")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_CONFIG_DIR=" + root, "TERM=xterm-256color",
		"ANTHROPIC_BASE_URL=http://127.0.0.1:9", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "ANTHROPIC_API_KEY=" + key}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		_ = err // the driver kills claude: its exit status says nothing
	case <-time.After(90 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err := <-done
		t.Logf("picker run timed out (%v)", err)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	b, err := os.ReadFile(logf)
	if err != nil {
		t.Fatal(err)
	}
	// Cursor-forward moves stand for spaces between words; other moves
	// and styles end a piece of text.
	s := regexp.MustCompile(`\x1b\[[0-9]*C`).ReplaceAllString(string(b), " ")
	s = regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(s, "")
	s = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`).ReplaceAllString(s, "\n")
	return regexp.MustCompile(`\x1b[\]P][^\x07\x1b]*(\x07|\x1b\\)`).ReplaceAllString(s, "")
}

func versionAfter(a, b string) bool {
	var x, y [3]int
	if _, err := fmt.Sscanf(a, "%d.%d.%d", &x[0], &x[1], &x[2]); err != nil {
		return false
	}
	if _, err := fmt.Sscanf(b, "%d.%d.%d", &y[0], &y[1], &y[2]); err != nil {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return x[i] > y[i]
		}
	}
	return false
}
