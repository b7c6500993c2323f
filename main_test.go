package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mancala": func() { os.Exit(run()) },
	})
}

// TestScripts runs the command-line transcripts in testdata/script: each
// runs `mancala` and checks its stdout, stderr and exit code.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
