package cmd

import (
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/mancala-solver/mancala/oracle"
)

// TestMemTBFlagIsMemTBSeeds: --mem-tb and oracle.Config.MemTBSeeds are one
// number with one meaning (0 never, -1 automatic, N seeds), the default
// the automatic size.
func TestMemTBFlagIsMemTBSeeds(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{{nil, oracle.MemTBAuto}, {[]string{"--mem-tb", "0"}, 0}, {[]string{"--mem-tb", "-1"}, -1}, {[]string{"--mem-tb", "9"}, 9}} {
		var o oracleFlags
		f := pflag.NewFlagSet("solve", pflag.ContinueOnError)
		o.add(f, time.Second, "", "")
		if err := f.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if err := o.check(); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got := o.config().MemTBSeeds; got != c.want {
			t.Errorf("%v: MemTBSeeds %d, want %d", c.args, got, c.want)
		}
	}
}
