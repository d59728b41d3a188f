// Package storetest holds test helpers shared by the tests of the fix
// store and of the commands that write through it (fix, redact): a folder
// on another file system, where a backup is a copy, not a hard link. Test
// helpers only: imported by _test.go files, never by the binary.
package storetest
