package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/mancala-solver/mancala/internal/testsize"

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
// runs `mancala` and checks its stdout, stderr and exit code. The
// condition [small] holds in the short run and under -race
// (internal/testsize): a script of large counts starts with `[small] skip`
// when a smaller script covers the same commands.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Condition: func(cond string) (bool, error) {
		if cond == "small" {
			return testsize.Short(), nil
		}
		return false, fmt.Errorf("unknown condition %q", cond)
	}})
}
