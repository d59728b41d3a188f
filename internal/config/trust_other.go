//go:build !unix

package config

import (
	"errors"
	"io/fs"
)

// Trusted says why a configuration file found by walking up from the
// current folder must not be applied, or nil: it must be a regular file.
func Trusted(st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	return nil
}
