//go:build unix

package oracle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGenerate plays every scenario with every version into
// $CCVET_ORACLE_OUT/<version>/<scenario> (skipped when unset), and with
// CCVET_ORACLE_SCRUB_OUT=DIR writes a scrubbed copy of each data root (fit
// for committing) to DIR/<version>/<scenario>.
// CCVET_ORACLE_VERSIONS and CCVET_ORACLE_SCENARIOS (comma lists) narrow it.
func TestGenerate(t *testing.T) {
	out := os.Getenv("CCVET_ORACLE_OUT")
	if out == "" {
		t.Skip("CCVET_ORACLE_OUT not set")
	}
	versions := Pinned
	if v := os.Getenv("CCVET_ORACLE_VERSIONS"); v != "" {
		versions = strings.Split(v, ",")
	}
	want := map[string]bool{}
	if s := os.Getenv("CCVET_ORACLE_SCENARIOS"); s != "" {
		for _, n := range strings.Split(s, ",") {
			want[n] = true
		}
	}
	ctx := context.Background()
	failed := false
	defer func() {
		if err := WriteIndex(out, versions); err != nil {
			t.Error(err)
		}
		if !failed && len(want) == 0 {
			_ = os.WriteFile(filepath.Join(out, "READY"), nil, 0o644)
		}
	}()
	for _, v := range versions {
		bin, err := Install(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range Scenarios() {
			if len(want) > 0 && !want[sc.Name] {
				continue
			}
			t.Run(v+"/"+sc.Name, func(t *testing.T) {
				dir := filepath.Join(out, v, sc.Name)
				_ = os.RemoveAll(dir)
				start := time.Now()
				env, err := Generate(ctx, v, bin, sc, dir)
				if err != nil {
					failed = true
					t.Error(err)
				}
				if so := os.Getenv("CCVET_ORACLE_SCRUB_OUT"); so != "" && env != nil {
					if err := ScrubTree(env.Root, filepath.Join(so, v, sc.Name)); err != nil {
						t.Error(err)
					}
				}
				t.Logf("%s %s: %v", v, sc.Name, time.Since(start).Round(time.Millisecond))
			})
		}
	}
}
