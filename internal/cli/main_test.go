package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain removes what the package's tests leave outside their
// t.TempDir: the ccvet binary buildCcvet builds once per test process.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		_ = os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}
