// Package early gives the heap its huge-page advice before the other packages' initialisation allocates; main imports it for that alone.
package early

import "github.com/ccvet/ccvet/internal/hugeheap"

// Packages are initialised in the order of their import paths among
// those whose imports are: this one needs only hugeheap and the standard
// library's first packages, and its path sorts before every other
// module's (github.com/fatih, github.com/santhosh-tekuri, ...), so it
// runs before them. jsonschema/v5's own initialisation, which compiles
// its metaschemas, allocates about 1 MB, then on huge pages.
func init() {
	hugeheap.Advise()
}
