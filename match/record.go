package match

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/mancala-solver/mancala/position"
)

// A match's record (Config.Record) is a header line, then two lines a
// game as they finish:
//
//	# mancala match: variant oware-own; engine1 "CMD"; engine2 "CMD"; names "one", "two"; limit depth 2; openings 65 e3b0c442
//	# game 1: one (South) - two (North) 1-0, 26-22, tablebase: ...
//	oware-own 3 4 1 ...
//
// Every line but the games' moves is a comment to `mancala analyze`. The
// header names what makes two runs one match (Config.Header); ReadRecord
// reads the games back to resume it (Config.Done).

// headerPrefix starts a record's header line.
const headerPrefix = "# mancala match: "

// Header is the record's first line, without its newline: the variant,
// both engines' command lines and given names, the limit a move (the
// margin left out: it only judges time forfeits) and the openings (their
// number and a hash of their moves). The number of games, concurrency and
// SPRT are left out: a resumed match may ask for more games.
func (cfg *Config) Header() string {
	h := fnv.New32a()
	for _, o := range cfg.Openings {
		fmt.Fprintln(h, o)
	}
	head := fmt.Sprintf("%svariant %s; engine1 %q; engine2 %q; names %q, %q; limit %s; openings %d %08x",
		headerPrefix, cfg.Variant.Name, cfg.Commands[0], cfg.Commands[1], cfg.Names[0], cfg.Names[1],
		cfg.limitText(), len(cfg.Openings), h.Sum32())
	if cfg.Ponder {
		head += "; ponder on"
	}
	return head
}

// limitText is the limit a move as the header writes it.
func (cfg *Config) limitText() string {
	switch {
	case cfg.MoveTime > 0:
		return "movetime " + cfg.MoveTime.String()
	case cfg.GameTime > 0:
		return fmt.Sprintf("time %v inc %v", cfg.GameTime, cfg.Increment)
	}
	var f []string
	if cfg.Depth > 0 {
		f = append(f, fmt.Sprintf("depth %d", cfg.Depth))
	}
	if cfg.Nodes > 0 {
		f = append(f, fmt.Sprintf("nodes %d", cfg.Nodes))
	}
	return strings.Join(f, " ")
}

// gameLine is a game's comment line as writeRecord writes it.
var gameLine = regexp.MustCompile(`^# game (\d+): (.*) \(South\) - (.*) \(North\) (1-0|0-1|1/2-1/2), (\d+)-(\d+), (.*)$`)

// ReadRecord reads the games of a record written by an earlier run of the
// match cfg, to resume it: the header must be cfg's (else an error naming
// the first field that differs), and each game is a comment line and its
// moves, numbered 1..cfg.Games at most once, its moves legal from the
// start and beginning with the opening cfg gives that game. The games are
// returned in the record's order with their index, colours, names,
// result, final score, reason, moves and plies (Loser -1, Elapsed 0). A
// record cut inside a game's two lines (an interruption while writing)
// loses that game only. Errors name the line.
func ReadRecord(r io.Reader, cfg *Config) ([]Game, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("empty: no match header line")
	}
	n++
	if err := headerDiff(sc.Text(), cfg.Header()); err != nil {
		return nil, fmt.Errorf("line 1: %w", err)
	}
	var games []Game
	seen := map[int]bool{}
	var pending *Game
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if m := gameLine.FindStringSubmatch(line); m != nil {
			g, err := cfg.recordedGame(m)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			if seen[g.Index] {
				return nil, fmt.Errorf("line %d: game %d twice", n, g.Index)
			}
			pending = &g // a pending game without its moves (cut) is dropped
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		if pending == nil {
			return nil, fmt.Errorf("line %d: moves without a game line before them", n)
		}
		if err := cfg.recordedMoves(pending, line); err != nil {
			return nil, fmt.Errorf("line %d: game %d: %w", n, pending.Index, err)
		}
		seen[pending.Index] = true
		games = append(games, *pending)
		pending = nil
	}
	return games, sc.Err()
}

// headerDiff says how got, a record's header, differs from want.
func headerDiff(got, want string) error {
	if !strings.HasPrefix(got, headerPrefix) {
		return fmt.Errorf("no match header (want a line starting %q)", headerPrefix)
	}
	g := strings.Split(strings.TrimPrefix(got, headerPrefix), "; ")
	w := strings.Split(strings.TrimPrefix(want, headerPrefix), "; ")
	for i := range w {
		if i >= len(g) {
			return fmt.Errorf("the record's header has no %q", w[i])
		}
		if g[i] != w[i] {
			return fmt.Errorf("another match: the record's %s, this match's %s", g[i], w[i])
		}
	}
	if len(g) > len(w) {
		return fmt.Errorf("another match: the record's header has %q more", g[len(w)])
	}
	return nil
}

// recordedGame is the game a comment line m (gameLine's match) announces.
func (cfg *Config) recordedGame(m []string) (Game, error) {
	i, err := strconv.Atoi(m[1])
	if err != nil || i < 1 || i > cfg.Games {
		return Game{}, fmt.Errorf("game %s: want 1..%d (--games)", m[1], cfg.Games)
	}
	var final [2]int
	final[0], _ = strconv.Atoi(m[5])
	final[1], _ = strconv.Atoi(m[6])
	return Game{Index: i, South: (i - 1) % 2, Names: [2]string{m[2], m[3]}, Result: m[4], Final: final, Reason: m[7], Loser: -1}, nil
}

// recordedMoves reads g's moves line: the variant's name and the pits.
func (cfg *Config) recordedMoves(g *Game, line string) error {
	f := strings.Fields(line)
	if f[0] != cfg.Variant.Name {
		return fmt.Errorf("variant %q, want %s", f[0], cfg.Variant.Name)
	}
	r := position.NewGame(position.Setup{Variant: cfg.Variant, Position: cfg.Variant.Start(), CapturesKnown: true})
	for k, w := range f[1:] {
		pit, err := strconv.Atoi(w)
		if err == nil {
			_, err = r.Play(pit)
		}
		if err != nil {
			return fmt.Errorf("the %s move %q: %v", position.Ordinal(k+1), w, err)
		}
		g.Moves = append(g.Moves, pit)
	}
	if o := cfg.opening(g.Index - 1); len(g.Moves) < len(o) || !equalPits(g.Moves[:len(o)], o) {
		return fmt.Errorf("does not start with its opening %v", o)
	}
	g.Opening = cfg.opening(g.Index - 1)
	g.Plies = len(r.Line)
	return nil
}

func equalPits(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// WriteHeader writes the record's header line (Header) to w.
func (cfg *Config) WriteHeader(w io.Writer) error {
	_, err := io.WriteString(w, cfg.Header()+"\n")
	return err
}
