//go:build !linux

package testnotice

// toGoCommand does nothing where the parent's descriptors cannot be reached
// (no /proc): the notice is in the file only.
func toGoCommand(string) {}
