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

// TestHashFlagFitsTime: without --hash the table is 64 MiB a second of
// --time, within 16..256 MiB (worked by hand: 0.43 s is 27 MiB, 10 s and
// no limit 256, 0.1 s 16); a given --hash is kept as it is.
func TestHashFlagFitsTime(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"--time", "0.43s"}, 27}, {[]string{"--time", "10s"}, 256},
		{[]string{"--time", "0"}, 256}, {[]string{"--time", "100ms"}, 16},
		{[]string{"--time", "0.43s", "--hash", "512"}, 512},
	} {
		var o oracleFlags
		f := pflag.NewFlagSet("solve", pflag.ContinueOnError)
		o.add(f, 10*time.Second, "", "")
		if err := f.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if err := o.check(); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got := o.config().HashMiB; got != c.want {
			t.Errorf("%v: HashMiB %d, want %d", c.args, got, c.want)
		}
	}
}
