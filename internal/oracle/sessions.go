//go:build unix

package oracle

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Sessions plays each (version, scenario) at most once per process, into
// Dir/<version>/<scenario>, so that several tests share the runs.
type Sessions struct {
	Dir string

	mu sync.Mutex
	m  map[string]*played
}

type played struct {
	once sync.Once
	env  *Env
	err  error
}

// NewSessions plays into dir (created when missing).
func NewSessions(dir string) *Sessions {
	return &Sessions{Dir: dir, m: map[string]*played{}}
}

// Get returns the Env of a played scenario, playing it (and installing the
// version) the first time.
func (s *Sessions) Get(ctx context.Context, version, scenario string) (*Env, error) {
	sc, ok := Lookup(scenario)
	if !ok {
		return nil, fmt.Errorf("oracle: no scenario %q", scenario)
	}
	s.mu.Lock()
	p := s.m[version+"/"+scenario]
	if p == nil {
		p = &played{}
		s.m[version+"/"+scenario] = p
	}
	s.mu.Unlock()
	p.once.Do(func() {
		bin, err := Install(ctx, version)
		if err != nil {
			p.err = err
			return
		}
		dir := filepath.Join(s.Dir, version, scenario)
		_ = os.RemoveAll(dir)
		p.env, p.err = Generate(ctx, version, bin, sc, dir)
	})
	return p.env, p.err
}
