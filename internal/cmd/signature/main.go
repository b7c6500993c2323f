// Command signature writes the signature of the rules, the tablebase
// build and the search (bench.WriteSignature: perft counts, checksums of
// small tablebases, node counts of fixed-depth searches) to stdout. The
// committed copy is testdata/signatures.txt; .ci/run makes a new one and
// fails when the two differ. A change that alters a count on purpose
// updates the file and says why in its commit:
//
//	go run ./internal/cmd/signature > testdata/signatures.txt
//
// It measures no time, so its output is the same on every machine; it
// takes seconds.
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"

	"github.com/mancala-solver/mancala/bench"
)

const header = `# The signature of the rules, the tablebase build and the search: it
# changes only when they do. Written by
#   go run ./internal/cmd/signature > testdata/signatures.txt
# and compared by .ci/run; update it on purpose and say why in the commit.
`

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "signature: takes no arguments; it writes the signature to stdout")
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	out.WriteString(header)
	err := bench.WriteSignature(context.Background(), out, "")
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "signature:", err)
		os.Exit(1)
	}
}
