package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// Config is a match: two engine command lines, the limits each move is
// searched with, and the games.
type Config struct {
	// Variant is the game played (six pits a row, position.CheckDialect); the
	// engines must play it by default or be told to by their commands.
	Variant *position.Variant
	// Commands are the two engines' command lines, run by sh -c; Names
	// label them ("" : the id name the engine sends, else engine1/2).
	Commands [2]string
	Names    [2]string
	// The limits, one kind: MoveTime a move (go movetime); GameTime each
	// side's clock for the game with Increment added after each move (go
	// wtime btime winc binc); or Nodes / Depth a move (go nodes / depth).
	MoveTime, GameTime, Increment time.Duration
	Nodes, Depth                  int
	// Margin is the time past a move's limit (or the mover's clock) after
	// which a move is a time forfeit; with Nodes or Depth, the longest a
	// move may take.
	Margin time.Duration
	// Games is the number of games: openings are taken in turn, each
	// played twice, the first engine South then North.
	Games int
	// Openings are move lists (pits 1..6 of the mover, passes left out)
	// played from the start before the engines take over; none means
	// the start position.
	Openings [][]int
	// Concurrency is the number of games played at once (0 means 1).
	Concurrency int
	// Tablebase, if not nil, adjudicates a game once it holds the
	// position (for a variant whose repetitions are not worth 0, a
	// tablebase of its neutral twin: the values differ only where a
	// position repeats).
	Tablebase solver.Tablebase
	// Ponder lets the engine that has just moved search on its opponent's
	// time: it gets the position its opponent is to move in and `go
	// ponder` with the move's limit, and `stop` (its bestmove read and
	// dropped, off its clock) before its own next position, as samurai's
	// test battle does. Each engine then uses its threads all the time.
	Ponder bool
	// SPRT, if not nil, stops the match once it accepts a hypothesis.
	SPRT *SPRT
	// Record, if not nil, gets every game as a game record `mancala
	// analyze` reads: a comment line naming the players and result, then
	// the start position and the moves (record.go; the caller writes the
	// header, WriteHeader).
	Record io.Writer
	// Done are games of this match already played, read from its record
	// by ReadRecord: they are counted (first, in this order) and not
	// played again; the games of the other indexes are. Their names must
	// be the engines' names.
	Done []Game
	// Progress, if not nil, is called after each game (never two at
	// once).
	Progress func(Game, Score)
}

// Game is one finished game.
type Game struct {
	Index   int       // 1-based, in the order the games were started
	South   int       // which engine (0 or 1) played South (player 1)
	Names   [2]string // South's and North's names
	Opening []int
	Moves   []int  // every move's pit from the start, the opening's first; passes left out
	Final   [2]int // South's and North's final scores
	Result  string // "1-0", "0-1" or "1/2-1/2", from South
	Reason  string // why the game ended
	Loser   int    // the engine (0 or 1) that lost by a breach, -1 none
	Plies   int
	Elapsed time.Duration
	restart [2]bool // the engines to start afresh for the next game (a ponder search not stopped)
}

// Tally is the games' score from the first engine's side.
func Tally(games []Game) Score {
	var s Score
	for _, g := range games {
		g.tally(&s)
	}
	return s
}

// tally counts g in s, from the first engine's side.
func (g Game) tally(s *Score) {
	switch {
	case g.Result == "1/2-1/2":
		s.Draws++
	case (g.Result == "1-0") == (g.South == 0):
		s.Wins++
	default:
		s.Losses++
	}
}

// Result is a whole match.
type Result struct {
	Names   [2]string
	Score   Score // from the first engine
	Games   []Game
	Verdict Verdict // the SPRT's, Continue without one
	Stopped string  // why the match stopped early ("" : all games played)
}

// Run plays the match. It returns an error for a bad Config or when an
// engine cannot be started; an engine's breach during a game only loses
// that game. Cancelling ctx ends the match at once: the games under way
// are dropped, uncounted, and Result.Stopped says "interrupted".
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := cfg.check(); err != nil {
		return Result{}, err
	}
	workers := max(cfg.Concurrency, 1)
	res := Result{Names: cfg.Names}
	done := map[int]bool{}
	for _, g := range cfg.Done {
		done[g.Index-1] = true
		res.Games = append(res.Games, g)
		g.tally(&res.Score)
	}
	var todo []int // the indexes still to play, in order
	for i := 0; i < cfg.Games; i++ {
		if !done[i] {
			todo = append(todo, i)
		}
	}
	var mu sync.Mutex
	stop := false
	if cfg.SPRT != nil && len(cfg.Done) > 0 {
		if res.Verdict = cfg.SPRT.Verdict(res.Score); res.Verdict != Continue {
			stop, res.Stopped = true, "SPRT: "+res.Verdict.String()
		}
	}
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if stop || len(todo) == 0 || ctx.Err() != nil {
			return 0, false
		}
		i := todo[0]
		todo = todo[1:]
		return i, true
	}
	finish := func(g Game) {
		mu.Lock()
		defer mu.Unlock()
		res.Games = append(res.Games, g)
		g.tally(&res.Score)
		if cfg.Progress != nil {
			cfg.Progress(g, res.Score)
		}
		if cfg.Record != nil {
			writeRecord(cfg.Record, cfg.Variant, g)
		}
		if cfg.SPRT != nil && !stop {
			if res.Verdict = cfg.SPRT.Verdict(res.Score); res.Verdict != Continue {
				stop, res.Stopped = true, "SPRT: "+res.Verdict.String()
			}
		}
	}
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	var names [2]string
	var namesOnce sync.Once
	var namesErr error // the Done games were played by others
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var eng [2]*engine
			defer func() {
				for _, e := range eng {
					if e != nil {
						e.close()
					}
				}
			}()
			for {
				i, ok := take()
				if !ok {
					return
				}
				for k := range eng {
					if eng[k] != nil {
						continue
					}
					e, err := startEngine(context.Background(), cfg.label(k), cfg.Commands[k], cfg.startTimeout())
					if err != nil {
						errs <- fmt.Errorf("engine %d (%s): %w", k+1, cfg.Commands[k], err)
						mu.Lock()
						stop = true
						mu.Unlock()
						return
					}
					eng[k] = e
				}
				namesOnce.Do(func() {
					names = cfg.names(eng)
					namesErr = cfg.checkDone(names)
				})
				if namesErr != nil {
					mu.Lock()
					stop = true
					mu.Unlock()
					return
				}
				g, ok := cfg.play(ctx, i, eng, names)
				if !ok {
					return // interrupted: the game is not counted
				}
				for k, e := range eng {
					if g.Loser == k || g.restart[k] { // a breach leaves the engine's state unknown: start it afresh
						e.close()
						eng[k] = nil
					}
				}
				finish(g)
			}
		}()
	}
	wg.Wait()
	close(errs)
	if names == ([2]string{}) && len(cfg.Done) > 0 { // every game was played before
		g := cfg.Done[0]
		names[g.South], names[1-g.South] = g.Names[0], g.Names[1]
	}
	res.Names = names
	if err := <-errs; err != nil {
		return res, err
	}
	if namesErr != nil {
		return res, namesErr
	}
	if res.Stopped == "" && len(res.Games) < cfg.Games {
		res.Stopped = "interrupted"
	}
	return res, nil
}

// checkDone checks that names, the engines' names, played the Done games.
func (cfg *Config) checkDone(names [2]string) error {
	for _, g := range cfg.Done {
		if want := [2]string{names[g.South], names[1-g.South]}; g.Names != want {
			return fmt.Errorf("match: the record's game %d was played by %s (South) and %s (North), not %s and %s: another match",
				g.Index, g.Names[0], g.Names[1], want[0], want[1])
		}
	}
	return nil
}

// opening is game i's opening (0-based i): the openings in turn, each
// twice; nil without openings.
func (cfg *Config) opening(i int) []int {
	if len(cfg.Openings) == 0 {
		return nil
	}
	return cfg.Openings[(i/2)%len(cfg.Openings)]
}

// names are the engines' names: Config.Names, else the first word of
// the id name each sent (engine1, engine2 if none), numbered when alike.
func (cfg *Config) names(eng [2]*engine) [2]string {
	var names [2]string
	for k := range names {
		names[k] = cfg.Names[k]
		if f := strings.Fields(eng[k].name0); names[k] == "" && len(f) > 0 {
			names[k] = f[0]
		}
		if names[k] == "" {
			names[k] = cfg.label(k)
		}
	}
	if names[0] == names[1] {
		names[0], names[1] = names[0]+"-1", names[1]+"-2"
	}
	return names
}

func (cfg *Config) label(k int) string {
	if cfg.Names[k] != "" {
		return cfg.Names[k]
	}
	return fmt.Sprintf("engine%d", k+1)
}

// ponderStopWait is the least time an engine has to answer stop to its
// ponder search with a bestmove (Margin when longer).
const ponderStopWait = 5 * time.Second

// startTimeout bounds the wait for uciok and readyok: a Java engine reading
// its books on a loaded machine took over 10 s.
func (cfg *Config) startTimeout() time.Duration { return max(time.Minute, cfg.Margin) }

// check validates the Config.
func (cfg *Config) check() error {
	limits := 0
	for _, set := range []bool{cfg.MoveTime > 0, cfg.GameTime > 0, cfg.Nodes > 0, cfg.Depth > 0} {
		if set {
			limits++
		}
	}
	switch {
	case cfg.Variant == nil:
		return errors.New("match: no variant")
	case position.CheckDialect(cfg.Variant) != nil:
		return position.CheckDialect(cfg.Variant)
	case cfg.Commands[0] == "" || cfg.Commands[1] == "":
		return errors.New("match: two engine commands are needed")
	case limits == 0 && cfg.Increment == 0:
		return errors.New("match: no limit a move (move time, game time, nodes or depth)")
	case limits > 1 && !(cfg.Nodes > 0 && cfg.Depth > 0 && limits == 2):
		return errors.New("match: give one limit: move time, game time (with increment), or nodes and/or depth")
	case cfg.Increment > 0 && cfg.GameTime == 0:
		return errors.New("match: an increment needs a game time")
	case cfg.Games < 1:
		return fmt.Errorf("match: %d games; want at least 1", cfg.Games)
	case cfg.Concurrency < 0:
		return fmt.Errorf("match: concurrency %d", cfg.Concurrency)
	case cfg.Margin < 0:
		return fmt.Errorf("match: margin %v", cfg.Margin)
	}
	seen := map[int]bool{}
	for _, g := range cfg.Done {
		if g.Index < 1 || g.Index > cfg.Games || seen[g.Index] {
			return fmt.Errorf("match: a game already played is numbered %d: want 1..%d, each once", g.Index, cfg.Games)
		}
		seen[g.Index] = true
	}
	for i, o := range cfg.Openings {
		if _, err := replay(cfg.Variant, o); err != nil {
			return fmt.Errorf("match: opening %d: %w", i+1, err)
		}
	}
	return nil
}

// replay plays pits from the start and returns the game.
func replay(v *position.Variant, pits []int) (*position.Game, error) {
	g := position.NewGame(position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true})
	for i, pit := range pits {
		if g.Over {
			return nil, fmt.Errorf("the game is over before the %s move", position.Ordinal(i+1))
		}
		if _, err := g.Play(pit); err != nil {
			return nil, fmt.Errorf("the %s move: %w", position.Ordinal(i+1), err)
		}
	}
	if g.Over {
		return nil, errors.New("the game is over")
	}
	return g, nil
}

// play plays game i: opening i/2 (in turn), the first engine South when i
// is even. It reports false when ctx ended the game before its end.
func (cfg *Config) play(ctx context.Context, i int, eng [2]*engine, names [2]string) (Game, bool) {
	start := time.Now()
	opening := cfg.opening(i)
	south := i % 2
	gm := Game{Index: i + 1, South: south, Names: [2]string{names[south], names[1-south]}, Opening: opening, Loser: -1}
	g, _ := replay(cfg.Variant, opening) // checked by check
	gm.Moves = append(gm.Moves, opening...)
	clock := [2]time.Duration{cfg.GameTime, cfg.GameTime} // South's, North's
	lose := func(side int, reason string) {
		gm.Loser = (south + side) % 2
		gm.Reason = reason
		if side == 0 {
			gm.Result = "0-1"
		} else {
			gm.Result = "1-0"
		}
	}
	for k, e := range eng {
		err := e.send("ucinewgame")
		if err == nil {
			err = e.ready(cfg.startTimeout())
		}
		if err != nil {
			lose((k+2-south)%2, errReason(err))
			gm.Elapsed = time.Since(start)
			return gm, true
		}
	}
	// The moves so far in the dialect (passes have no letter).
	var letters strings.Builder
	r, _ := replay(cfg.Variant, nil)
	for _, pit := range opening {
		letters.WriteString(position.MoveLetter(r.Position, pit))
		_, _ = r.Play(pit)
	}
	// With Ponder, the engine that has just moved searches the position
	// its opponent is to move in (go ponder) until stop, sent before its
	// own next position; its answer to stop is read and dropped, off its
	// clock.
	var pondering [2]bool
	stopPonder := func(k int) error {
		if !pondering[k] {
			return nil
		}
		pondering[k] = false
		if err := eng[k].send("stop"); err != nil {
			return err
		}
		_, err := eng[k].awaitCtx(ctx, "bestmove", max(cfg.Margin, ponderStopWait))
		return err
	}
	for !g.Over {
		side := g.Position.Player() - 1 // 0 South, 1 North
		e := eng[(south+side)%2]
		pos := "position startpos"
		if letters.Len() > 0 {
			pos += " moves " + letters.String()
		}
		if err := stopPonder((south + side) % 2); err != nil {
			if errors.Is(err, errInterrupted) {
				return gm, false
			}
			lose(side, strings.Replace(errReason(err), "no bestmove within", "no bestmove after stop within", 1))
			break
		}
		goCmd, limit := cfg.goCommand(clock, side)
		word, took, err := e.bestmove(ctx, pos, goCmd, limit)
		if errors.Is(err, errInterrupted) {
			return gm, false
		}
		if cfg.GameTime > 0 && err == nil {
			clock[side] -= took
			if clock[side] < -cfg.Margin {
				err = protocolErr("%s: time forfeit, its clock at %v", e.name, clock[side].Round(time.Millisecond))
			}
			clock[side] += cfg.Increment
		}
		if err != nil {
			lose(side, errReason(err))
			break
		}
		pit, err := parseMove(cfg.Variant, g.Position, word)
		if err == nil {
			_, err = g.Play(pit)
		}
		if err != nil {
			lose(side, fmt.Sprintf("%s: illegal move %q: %v", e.name, word, err))
			break
		}
		letters.WriteString(word)
		gm.Moves = append(gm.Moves, pit)
		if !g.Over && cfg.Tablebase != nil && g.Position.Seeds() <= cfg.Tablebase.MaxSeeds() {
			if v, ok := cfg.Tablebase.Probe(g.Position); ok {
				mover := g.Position.Player() - 1
				final := g.Captured
				// v is the mover's margin over the seeds left; split them so.
				seeds := g.Position.Seeds()
				final[mover] += (seeds + v) / 2
				final[1-mover] += (seeds - v) / 2
				gm.Final = final
				gm.Result = resultOf(final)
				gm.Reason = fmt.Sprintf("tablebase: %d seeds on the board, %+d to %s", seeds, v, sideName(mover))
				break
			}
		}
		if cfg.Ponder && !g.Over {
			goCmd, _ := cfg.goCommand(clock, 1-side)
			k := (south + side) % 2
			pos := "position startpos moves " + letters.String()
			// A failed write is the engine's breach at its next move.
			pondering[k] = e.send(pos) == nil && e.send(strings.Replace(goCmd, "go", "go ponder", 1)) == nil
		}
	}
	for k := range eng { // the game is over: no engine may still search into the next
		if err := stopPonder(k); err != nil {
			if errors.Is(err, errInterrupted) {
				return gm, false
			}
			gm.restart[k] = true
		}
	}
	if g.Over && gm.Loser < 0 {
		gm.Final = g.Final
		gm.Result = resultOf(g.Final)
		gm.Reason = string(g.End)
	}
	gm.Plies = len(g.Line)
	gm.Elapsed = time.Since(start)
	return gm, true
}

func sideName(side int) string {
	if side == 0 {
		return "South"
	}
	return "North"
}

func resultOf(final [2]int) string {
	switch {
	case final[0] > final[1]:
		return "1-0"
	case final[0] < final[1]:
		return "0-1"
	}
	return "1/2-1/2"
}

func errReason(err error) string {
	var pe *ProtocolError
	if errors.As(err, &pe) {
		return pe.Reason
	}
	return err.Error()
}

// parseMove reads a bestmove word: one letter of the mover's row.
func parseMove(v *position.Variant, p position.Position, word string) (int, error) {
	if len(word) != 1 {
		return 0, fmt.Errorf("want one pit letter")
	}
	return v.LetterPit(p, word[0])
}

// goCommand is the go command for the side to move (0 South) and how long
// to wait for its bestmove.
func (cfg *Config) goCommand(clock [2]time.Duration, side int) (string, time.Duration) {
	switch {
	case cfg.MoveTime > 0:
		return fmt.Sprintf("go movetime %d", cfg.MoveTime.Milliseconds()), cfg.MoveTime + cfg.Margin
	case cfg.GameTime > 0:
		return fmt.Sprintf("go wtime %d btime %d winc %d binc %d", max(clock[0].Milliseconds(), 1), max(clock[1].Milliseconds(), 1),
			cfg.Increment.Milliseconds(), cfg.Increment.Milliseconds()), max(clock[side], 0) + cfg.Margin
	}
	var b strings.Builder
	b.WriteString("go")
	if cfg.Depth > 0 {
		fmt.Fprintf(&b, " depth %d", cfg.Depth)
	}
	if cfg.Nodes > 0 {
		fmt.Fprintf(&b, " nodes %d", cfg.Nodes)
	}
	return b.String(), max(cfg.Margin, time.Minute)
}

// writeRecord writes g as a game record: a comment, then the variant's
// start and the moves (pit numbers, as `mancala analyze` reads them).
func writeRecord(w io.Writer, v *position.Variant, g Game) {
	var b strings.Builder
	fmt.Fprintf(&b, "# game %d: %s (South) - %s (North) %s, %d-%d, %s\n", g.Index, g.Names[0], g.Names[1], g.Result, g.Final[0], g.Final[1], g.Reason)
	b.WriteString(v.Name)
	for _, pit := range g.Moves {
		fmt.Fprintf(&b, " %d", pit)
	}
	b.WriteString("\n")
	_, _ = io.WriteString(w, b.String())
}
