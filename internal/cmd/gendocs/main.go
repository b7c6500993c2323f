// Command gendocs writes docs/cli.md, the reference of every mancala
// command, from the Cobra command tree with cobra's own Markdown generator
// (github.com/spf13/cobra/doc), so that the page says what --help says.
// Run it from the repository root with
//
//	go generate ./cmd
//
// (cmd/doc.go holds the go:generate line); gendocs_test.go fails when the
// committed page is stale.
package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"

	"github.com/mancala-solver/mancala/cmd"
)

// header opens the page; the commands follow, each before the commands
// below it, in the order --help lists them.
const header = `# Command reference

Generated from the commands' ` + "`--help`" + ` texts by ` + "`go generate ./cmd`" + `
(internal/cmd/gendocs); edit the help texts in cmd/, not this page. Flags whose
default depends on the machine (` + "`--threads`" + `, ` + "`--tb`" + `) show it in words.

`

func main() {
	out := "docs/cli.md"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	page, err := generate()
	if err == nil {
		err = os.WriteFile(out, page, 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gendocs: %v\n", err)
		os.Exit(1)
	}
}

// generate returns the page: every available command of the tree, parent
// before children, each as doc.GenMarkdownCustom writes it, with links
// between commands turned into anchors of this one page. The output is
// the same on every machine and every day.
func generate() ([]byte, error) {
	// The default tablebase directory comes from $XDG_DATA_HOME or $HOME;
	// without either the help names both in words.
	os.Setenv("XDG_DATA_HOME", "")
	os.Setenv("HOME", "")
	root := cmd.NewRootCmd()
	// Execute adds these two; --help lists them.
	root.InitDefaultCompletionCmd()
	root.InitDefaultVersionFlag()
	var page bytes.Buffer
	page.WriteString(header)
	err := walk(root, func(c *cobra.Command) error {
		c.DisableAutoGenTag = true
		machineFreeDefaults(c)
		return doc.GenMarkdownCustom(c, &page, anchor)
	})
	return page.Bytes(), err
}

// walk calls f on c and then on each available command below it, in the
// order the tree holds them (--help's: by name).
func walk(c *cobra.Command, f func(*cobra.Command) error) error {
	if err := f(c); err != nil {
		return err
	}
	for _, sub := range c.Commands() {
		if !sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand() {
			continue
		}
		if err := walk(sub, f); err != nil {
			return err
		}
	}
	return nil
}

// machineFreeDefaults replaces a --threads default of this machine's CPU
// count by words.
func machineFreeDefaults(c *cobra.Command) {
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name == "threads" && f.DefValue == strconv.Itoa(runtime.NumCPU()) {
			f.DefValue = "the number of CPUs"
		}
	})
}

// anchor turns the generator's file name of a command ("mancala_solve.md")
// into the anchor of its heading on this page ("#mancala-solve").
func anchor(file string) string {
	name := strings.TrimSuffix(file, ".md")
	return "#" + strings.ReplaceAll(name, "_", "-")
}
