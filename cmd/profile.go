package cmd

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profileFile is the hidden --cpuprofile flag of every command: a CPU
// profile (pprof) of the command's run goes to that file, for profiling
// builds and searches before optimising them.
var (
	profileFile string
	profileOut  *os.File
)

// addProfileFlag adds --cpuprofile to root and starts the profile once
// the command line is parsed; Execute stops it.
func addProfileFlag(root *cobra.Command) {
	root.PersistentFlags().StringVar(&profileFile, "cpuprofile", "", "write a CPU profile (pprof) of the command to FILE")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	cobra.OnInitialize(func() {
		if profileFile == "" || profileOut != nil {
			return
		}
		f, err := os.Create(profileFile)
		if err == nil {
			if err = pprof.StartCPUProfile(f); err != nil {
				f.Close()
			}
		}
		if err != nil {
			// A developer's aid: say so, and let the command run.
			fmt.Fprintf(os.Stderr, "mancala: --cpuprofile: %v\n", err)
			return
		}
		profileOut = f
	})
}

// stopProfile ends a profile started by --cpuprofile, if any.
func stopProfile() {
	if profileOut != nil {
		pprof.StopCPUProfile()
		profileOut.Close()
		profileOut = nil
	}
}
