package uci

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// As samurai's referee does, the next position and go ponder follow the
// instant a bestmove is read, then stop: the engine must take that go
// (its previous search has answered) and answer the stop. Before the fix
// the search still counted as under way for a moment after its bestmove,
// so the go was dropped and the stop never answered: the referee hung.
func TestGoRightAfterBestmove(t *testing.T) {
	v, _ := position.Lookup("oware-own")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	e, err := New(Config{Variant: v, NoTB: true, HashMiB: 1, Threads: 1}, outW)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- e.Run(context.Background(), inR); outW.Close() }()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	bestmove := func(round int) string {
		// A hang is the failure; the limit is generous, not a speed test.
		timeout := time.After(time.Minute)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("round %d: output closed", round)
				}
				if strings.HasPrefix(l, "bestmove ") {
					return l
				}
			case <-timeout:
				t.Fatalf("round %d: no bestmove", round)
			}
		}
	}
	send := func(s string) {
		if _, err := io.WriteString(inW, s); err != nil {
			t.Fatal(err)
		}
	}
	for round := 0; round < 200; round++ {
		send("position startpos\ngo depth 1\n")
		bestmove(round)
		send("position startpos moves A\ngo ponder\nstop\n")
		if l := bestmove(round); !strings.HasPrefix(l, "bestmove ") || strings.ContainsAny(l[9:10], "ABCDEF") {
			t.Fatalf("round %d: %q answers the ponder on North's turn", round, l)
		}
	}
	send("quit\n")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
