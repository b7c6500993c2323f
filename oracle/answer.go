package oracle

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dustin/go-humanize/english"

	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
	"github.com/mancala-solver/mancala/tablebase"
)

// Move is a move as notation.md writes it: a pit number 1..n on the
// mover's row, or position.PassPit for a pass. In JSON it is the number,
// or the string "pass".
type Move int

// Pass is the pass move.
const Pass = Move(position.PassPit)

// String is the pit number or "pass".
func (m Move) String() string { return position.MoveString(int(m)) }

// MarshalJSON writes a pit number, or "pass".
func (m Move) MarshalJSON() ([]byte, error) {
	if m == Pass {
		return []byte(`"pass"`), nil
	}
	return []byte(strconv.Itoa(int(m))), nil
}

// UnmarshalJSON reads a pit number, or "pass".
func (m *Move) UnmarshalJSON(b []byte) error {
	if string(b) == `"pass"` {
		*m = Pass
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil || n < 1 {
		return fmt.Errorf("move %s: want a pit number or \"pass\"", b)
	}
	*m = Move(n)
	return nil
}

// MoveValue is one legal move's value to the mover (position.Move.Value):
// the seeds it captures plus what follows for the mover.
type MoveValue struct {
	Move     Move `json:"move"`
	Value    int  `json:"value"`
	Captured int  `json:"captured"`
	Exact    bool `json:"exact"`
	// Lower and Upper are proven bounds on the value (equal when exact).
	Lower int `json:"lower_bound"`
	Upper int `json:"upper_bound"`
	// Class is the move's class by the seeds it loses against the
	// position's value (Classify: "best", "inaccuracy", "mistake",
	// "blunder"), as analyze classes a played move.
	Class string `json:"class,omitempty"`
}

// Where an answer came from (Answer.Source).
const (
	SourceRules     = "rules"     // the game is over: the end rule's shares
	SourceTablebase = "tablebase" // probed, no search
	SourceSearch    = "search"    // searched (with the tablebase's help, if any)
)

// Answer is what the oracle says of one position. Field names are
// notation.md's (the solve/query object); the rest are additions.
// Values are score differences in seeds from Player, the side to move of
// Position as given (rules.md section 6), after the game's history when
// one was given.
type Answer struct {
	// Position is the position as given, normalised.
	Position string `json:"position"`
	// Player is the side to move of Position, whose value this is.
	Player int `json:"player"`
	// MustPass: Player has no legal move and passes (notation.md "Forced
	// passes"); BestMoves is ["pass"] and PV starts with it.
	MustPass bool `json:"must_pass,omitempty"`
	// GameOver: Position has no moves; Value is its end-of-game share
	// difference.
	GameOver bool `json:"game_over"`
	Value    int  `json:"value"`
	Exact    bool `json:"exact"`
	// Lower and Upper are proven bounds on Value (equal when Exact).
	Lower int `json:"lower_bound"`
	Upper int `json:"upper_bound"`
	// BestMoves is every move that achieves Value, in pit order, when
	// BestMovesComplete; else an exact value lists the moves proven to
	// achieve it (SolveOptions.OneBest: often one), and an estimate lists every move whose estimate
	// equals Value (all moves valued) or the search's best move.
	BestMoves         []Move `json:"best_moves"`
	BestMovesComplete bool   `json:"best_moves_complete"`
	// Moves is every legal move's value, in pit order, where known. A
	// search values each move with the position (and the history) on the
	// line before it, so a move back to them is a repetition; an answer
	// from the tablebase takes each move's position as the tablebase
	// stores it, which can differ for a move that is not best (a
	// repetition only pulls a value toward 0). Value agrees either way.
	Moves []MoveValue `json:"moves,omitempty"`
	// Lines is every turn's value, in pit order, when SolveOptions.Lines
	// asked for it: each move, and each move after which the mover moves
	// again followed by every continuation ("3-6", LineValue). The best
	// line's value is Value.
	Lines []LineValue `json:"lines,omitempty"`
	// PV is the principal variation. For an exact value it is made of
	// proven best moves only, and PVComplete says it reaches the end of
	// the game (or a repetition), so that playing it out realises Value.
	PV         []Move `json:"pv"`
	PVComplete bool   `json:"pv_complete"`
	// Distance, for an answer from a tablebase that stores distances, is
	// the plies to the exit that realises Value: the capture (one ply) or
	// the game end (none) that playing the value-keeping moves reaches,
	// the winner taking the shortest way and the loser the longest; 0 for
	// a value of 0 (docs/tablebase-design.md, "Distance"). nil otherwise.
	Distance *int `json:"distance,omitempty"`
	// Search statistics, where a search ran.
	Depth          int     `json:"depth"`
	Nodes          uint64  `json:"nodes"`
	Seconds        float64 `json:"seconds"`
	NodesPerSecond float64 `json:"nodes_per_second"`
	Threads        int     `json:"threads"`
	// Stopped says why the answer is as far as it goes: "exact",
	// "one best" (the value and the best moves proven by then:
	// SolveOptions.OneBest), "game over", "time limit", "node limit",
	// "depth limit", "canceled".
	Stopped string `json:"stopped"`
	// Source is "rules", "tablebase" or "search".
	Source string `json:"source"`
	// Tablebase: a tablebase of TablebaseSeeds seeds served the answer,
	// built in memory for this process when TablebaseInMemory.
	Tablebase         bool   `json:"tablebase"`
	TablebaseSeeds    int    `json:"tablebase_seeds,omitempty"`
	TablebaseInMemory bool   `json:"tablebase_in_memory,omitempty"`
	TablebaseHits     uint64 `json:"tablebase_hits,omitempty"`
	// StopAtIgnored: the variant ends a game at StopAt captured seeds
	// (awari, oware), a rule values never apply (rules.md section 6).
	StopAtIgnored bool `json:"stop_at_ignored,omitempty"`
	// StopAtReached: the position's captures, when given, already reach
	// that limit, so a game played out would be over here.
	StopAtReached bool `json:"stop_at_reached,omitempty"`
	// Result tells Value as the game's end: each player's final score
	// with best play, who wins, and how the line ends (Result).
	Result *Result `json:"result,omitempty"`
	// KnownResult: Position is its game's start and the game's result
	// from there is known (KnownResultOf).
	KnownResult *KnownResult `json:"known_result,omitempty"`
}

// ErrNoTablebase: no tablebase serves the variant (none configured, none
// on disk, or it holds none of the variant's layers: then the error is a
// *tablebase.MissingError, which names the variants it does hold). It is
// tablebase.ErrNoTablebase, so that one test covers both packages' errors.
var ErrNoTablebase = tablebase.ErrNoTablebase

// NotInTablebaseError: the position has more seeds than the tablebase
// holds.
type NotInTablebaseError struct {
	Position string
	Seeds    int // seeds on the board
	MaxSeeds int // the tablebase's largest complete layer
}

func (e *NotInTablebaseError) Error() string {
	return fmt.Sprintf("%s: not in the tablebase (built up to %s, this position has %d)", e.Position, english.Plural(e.MaxSeeds, "seed", ""), e.Seeds)
}

// newAnswer starts the answer for s.
func (o *Oracle) newAnswer(s position.Setup) Answer {
	v := s.Variant
	a := Answer{Position: s.String(), Player: s.Position.Player(), BestMoves: []Move{}, PV: []Move{},
		Threads: o.cfg.Threads, StopAtIgnored: v.StopAt > 0}
	a.StopAtReached = v.StopAt > 0 && s.CapturesKnown && (s.Captured[0] >= v.StopAt || s.Captured[1] >= v.StopAt)
	return a
}

// gameOver fills a for a position without moves.
func gameOver(a *Answer, v *position.Variant, p position.Position) {
	val := v.TerminalValue(p)
	a.GameOver, a.Value, a.Exact, a.Lower, a.Upper = true, val, true, val, val
	a.BestMovesComplete, a.PVComplete, a.Stopped, a.Source = true, true, string(solver.StopGameOver), SourceRules
}

// legalMoves returns p's moves.
func legalMoves(v *position.Variant, p position.Position) []position.Move {
	var buf [position.MaxPits]position.Move
	n := v.Moves(p, &buf)
	return append([]position.Move(nil), buf[:n]...)
}

// settle answers p, whose legal moves are moves, when it needs no answer
// of its own: a finished game (gameOver), or a forced pass, answered by
// answering the position after it with after and passing that back
// (forcedPass). It reports whether p was settled so, and after's error.
func settle(a *Answer, v *position.Variant, p position.Position, moves []position.Move, after func(position.Position, *Answer) error) (bool, error) {
	switch {
	case len(moves) == 0:
		gameOver(a, v, p)
		return true, nil
	case moves[0].IsPass():
		next := Answer{Player: position.Opponent(a.Player), Threads: a.Threads}
		if err := after(moves[0].Next, &next); err != nil {
			return true, err
		}
		forcedPass(a, p, moves[0], next)
		return true, nil
	}
	return false, nil
}

// forcedPass fills a, the answer for p whose mover must pass, from after,
// the answer for the position after the pass (notation.md "Forced
// passes": the value stays with p's mover).
func forcedPass(a *Answer, p position.Position, pass position.Move, after Answer) {
	val := pass.Value(p, after.Value)
	lo, hi := pass.Value(p, after.Lower), pass.Value(p, after.Upper)
	a.MustPass, a.Value, a.Exact = true, val, after.Exact
	a.Lower, a.Upper = min(lo, hi), max(lo, hi)
	a.BestMoves, a.BestMovesComplete = []Move{Pass}, true
	a.Moves = []MoveValue{{Move: Pass, Value: val, Exact: after.Exact, Lower: a.Lower, Upper: a.Upper}}
	a.PV = append([]Move{Pass}, after.PV...)
	a.PVComplete = after.PVComplete
	if after.Distance != nil && !after.GameOver {
		d := 0 // the pass is a move inside the layer: one ply more
		if val != 0 {
			d = *after.Distance + 1
		}
		a.Distance = &d
	}
	a.Depth, a.Nodes, a.Seconds, a.NodesPerSecond = after.Depth+1, after.Nodes, after.Seconds, after.NodesPerSecond
	a.Stopped, a.Source = after.Stopped, after.Source
	a.Tablebase, a.TablebaseSeeds, a.TablebaseInMemory, a.TablebaseHits =
		after.Tablebase, after.TablebaseSeeds, after.TablebaseInMemory, after.TablebaseHits
	if after.GameOver {
		a.Source = SourceRules
	}
}

// bestOf lists the moves of values whose value is best, and marks the
// answer's value.
func bestOf(moves []MoveValue) (value int, best []Move) {
	value = moves[0].Value
	for _, m := range moves {
		value = max(value, m.Value)
	}
	for _, m := range moves {
		if m.Value == value {
			best = append(best, m.Move)
		}
	}
	return value, best
}
