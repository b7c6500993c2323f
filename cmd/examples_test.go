package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// exampleFile is a file an example reads: a word ending in .txt.
var exampleFile = regexp.MustCompile(`[\w./-]+\.txt\b`)

// TestExamplesUseShippedFiles: every file that a command's examples or
// README.md's commands read is one the repository ships, so that a
// newcomer can run them in a clone (the newcomer trial of issue 43:
// README's `mancala analyze g3.txt` needed a file that was not there).
func TestExamplesUseShippedFiles(t *testing.T) {
	root := filepath.Join("..")
	check := func(where, text string) {
		for _, name := range exampleFile.FindAllString(text, -1) {
			if _, err := os.Stat(filepath.Join(root, name)); err != nil {
				t.Errorf("%s reads %s, which the repository does not ship", where, name)
			}
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		check("mancala "+c.Name()+"'s examples", c.Example)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewRootCmd())
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "    ") && strings.Contains(line, "mancala ") {
			check("README.md line "+itoaTest(i+1), line)
		}
	}
}

func itoaTest(n int) string { return strconv.Itoa(n) }
