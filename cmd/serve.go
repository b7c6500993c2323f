package cmd

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/web"
)

type serveOptions struct {
	addr     string
	tb       string
	time     time.Duration
	threads  int
	searches int
	hash     int
}

func newServeCmd() *cobra.Command {
	opts := &serveOptions{}
	c := stopsCleanly(&cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--tb DIR] [--time D] [--threads N]",
		Short: "Serve the board and analysis pages and a JSON API on the web",
		Long: `serve runs a web server with two pages and a JSON API:

  /            the board: choose a variant (every kalah size and rule set
               too) or paste a position, click a pit to play it, see every
               legal move's value and captures and the best moves
  /analyze     paste games (a start position then its moves, one game a line)
               for a value graph, a per-ply table and a per-player summary
  /api/solve?position=POS[&time=1s][&all=1]    as solve --json
  /api/query?position=POS                      as query --json
  /api/play?position=POS&moves=3,5,pass,1      as play --json
  /api/analyze  (POST, games as text/plain)    as analyze --json
  /api/variants                                the variants, for the pickers

Everything the pages need is inside the binary, so it works offline. It
listens on the loopback address unless --addr says otherwise, and then
answers only requests for localhost. Each request works at most --time
(capped at 2m); at most --searches searches run at once, others wait up to
3 s and then get status 503. Look-ups the tablebase answers at once (query,
and solve of a position it holds) do not wait for a search slot. At most 256 connections stay open: one more
closes the connection idle longest. Ctrl-C or SIGTERM stops it gracefully: it
stops accepting, the searches in flight answer with what they have, and the
exit status is 130 or 143, as for every command.`,
		Example: `  mancala serve
  mancala serve --addr 127.0.0.1:9000 --time 10s --tb ~/tb`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runServe(c.Context(), c, opts)
		},
	})
	f := c.Flags()
	f.StringVar(&opts.addr, "addr", "127.0.0.1:8080", "address to listen on (HOST:PORT)")
	f.StringVar(&opts.tb, "tb", "", "tablebase directory, opened read-only (default: the default directory, if present)")
	f.DurationVar(&opts.time, "time", 5*time.Second, "most time one request may work (capped at 2m)")
	f.IntVar(&opts.threads, "threads", runtime.NumCPU(), "threads a search")
	f.IntVar(&opts.searches, "searches", 2, "searches at once (more wait up to 3 s, then get 503)")
	f.IntVar(&opts.hash, "hash", 64, "largest transposition table size in MiB, grown as used, per variant searched")
	return c
}

func checkServeOptions(opts *serveOptions) error {
	switch {
	case opts.time <= 0 || opts.time > web.MaxTime:
		return fmt.Errorf("--time %v: want more than 0 and at most %v", opts.time, web.MaxTime)
	case checkThreads(opts.threads) != nil: // as solve's and bench's
		return checkThreads(opts.threads)
	case opts.searches < 1 || opts.searches > 64:
		return fmt.Errorf("--searches %d: want 1..64", opts.searches)
	case opts.hash < 1 || opts.hash > maxHashMiB:
		return fmt.Errorf("--hash %d: want 1..%d MiB", opts.hash, maxHashMiB)
	}
	return nil
}

func runServe(ctx context.Context, c *cobra.Command, opts *serveOptions) error {
	if err := checkServeOptions(opts); err != nil {
		return err
	}
	if err := checkTBDir(opts.tb, true); err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	// ctx is the command's: SIGINT and SIGTERM cancel it (signals.go), and
	// the server then shuts down gracefully.
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", opts.addr, err)
	}
	answers, err := web.NewAnswers(oracle.Config{TBDir: opts.tb, MemTBSeeds: oracle.MemTBAuto, Threads: opts.threads, HashMiB: opts.hash})
	if err != nil {
		ln.Close()
		return err
	}
	defer answers.Close()
	warmCtx, stopWarm := context.WithCancel(ctx)
	warmed := make(chan struct{})
	go func() {
		defer close(warmed)
		start := time.Now()
		if answers.Warm(warmCtx) == nil {
			fmt.Fprintf(c.ErrOrStderr(), "serve: endgame tablebases ready in %v\n", time.Since(start).Round(time.Millisecond))
		}
	}()
	defer func() { stopWarm(); <-warmed }() // before Close
	loopback := web.IsLoopback(ln.Addr().String())
	srv := web.New(answers, web.Config{Time: opts.time, Searches: opts.searches, LoopbackOnly: loopback,
		Logf: func(format string, args ...any) { fmt.Fprintf(c.ErrOrStderr(), format+"\n", args...) }})
	if !loopback {
		fmt.Fprintf(c.ErrOrStderr(), "serve: listening on %s, beyond this machine\n", ln.Addr())
	}
	fmt.Fprintf(c.OutOrStdout(), "serving on http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	fmt.Fprintln(c.ErrOrStderr(), "serve: stopped")
	return nil
}
