// Command ccvet lints and validates the data Claude Code keeps on disk.
package main

import (
	"os"

	"github.com/ccvet/ccvet/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
