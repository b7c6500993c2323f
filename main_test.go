package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// runMainEnv, set to 1, makes the test binary run as mancala itself, for
// the tests that send it signals (signals_test.go).
const runMainEnv = "MANCALA_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(run())
	}
	testscript.Main(m, map[string]func(){
		"mancala": func() { os.Exit(run()) },
	})
}

// TestScripts runs the command-line transcripts in testdata/script: each
// runs `mancala` and checks its stdout, stderr and exit code.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
