package oracle

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mancala-solver/mancala/position"
)

// Loss thresholds of the ply classes, in seeds (a ply's loss is its
// position's value minus the played move's value).
const (
	InaccuracyLoss = 1 // a loss of 1 or 2 seeds is an inaccuracy
	MistakeLoss    = 3 // 3 to 5, a mistake
	BlunderLoss    = 6 // 6 or more, a blunder
)

// The classes of a ply.
const (
	ClassBest       = "best"
	ClassInaccuracy = "inaccuracy"
	ClassMistake    = "mistake"
	ClassBlunder    = "blunder"
)

// Classify names the class of a ply that lost loss seeds.
func Classify(loss int) string {
	switch {
	case loss >= BlunderLoss:
		return ClassBlunder
	case loss >= MistakeLoss:
		return ClassMistake
	case loss >= InaccuracyLoss:
		return ClassInaccuracy
	}
	return ClassBest
}

// Accuracy is a player's accuracy in percent: the mean over their moves
// (forced passes left out) of 100 / (1 + loss/2), so a best move counts
// 100, a loss of 2 seeds 50 and of 6 seeds 25; rounded to a tenth. No
// moves: 100.
func Accuracy(losses []int) float64 {
	if len(losses) == 0 {
		return 100
	}
	sum := 0.0
	for _, l := range losses {
		sum += 100 / (1 + float64(l)/2)
	}
	return math.Round(10*sum/float64(len(losses))) / 10
}

// AnalyzeOptions are one Analyze call's settings.
type AnalyzeOptions struct {
	// Time bounds each ply's answer; 0 means no limit.
	Time time.Duration
	// Nodes bounds each ply's search; 0 none.
	Nodes int64
	// Progress, when not nil, is called after each ply with the plies
	// done and the total.
	Progress func(done, total int)
}

// PlyAnalysis is one ply of an analysed game (notation.md "Game
// analysis"). Values are from Player, the mover, after the game's history.
type PlyAnalysis struct {
	Ply      int    `json:"ply"`
	Player   int    `json:"player"`
	Position string `json:"position"` // before the move
	Move     Move   `json:"move"`
	Captured int    `json:"captured"`
	// Again: the same player moves again after the move (kalah's extra
	// move, position.Move.MovesAgain).
	Again     bool   `json:"again,omitempty"`
	Value     int    `json:"value"`      // the position's value (best play)
	MoveValue int    `json:"move_value"` // the played move's value
	Loss      int    `json:"loss"`       // Value - MoveValue, never negative
	Exact     bool   `json:"exact"`      // both values proven
	BestMoves []Move `json:"best_moves"`
	// BestMovesComplete: BestMoves is every move that achieves Value
	// (proven); false for an estimate, or when the search proved the
	// value but not every other move's.
	BestMovesComplete bool   `json:"best_moves_complete"`
	Class             string `json:"class"`
	// Result tells Value as the game's end: the final score best play
	// from the ply's position gives, after the game's captures so far,
	// and who wins (Result; its Exact is the value's).
	Result *Result `json:"result"`
}

// PlayerSummary sums up one player's plies (forced passes left out).
type PlayerSummary struct {
	Player     int     `json:"player"`
	Loss       int     `json:"loss"`
	Accuracy   float64 `json:"accuracy"`
	Best       int     `json:"best"`
	Inaccuracy int     `json:"inaccuracy"`
	Mistake    int     `json:"mistake"`
	Blunder    int     `json:"blunder"`
}

// Analysis is an analysed game (notation.md "Game analysis").
type Analysis struct {
	Position string           `json:"position"` // the start position, normalised
	Plies    []PlyAnalysis    `json:"plies"`
	Players  [2]PlayerSummary `json:"players"`
	// ExactPlies and EstimatedPlies count the plies whose values are both
	// proven and the others; estimates depend on the time each ply gets
	// and on the machine, so they vary from run to run.
	ExactPlies     int                `json:"exact_plies"`
	EstimatedPlies int                `json:"estimated_plies"`
	GameOver       bool               `json:"game_over"`
	FinalScore     *[2]int            `json:"final_score,omitempty"`
	End            position.EndReason `json:"end,omitempty"`
	// Result is the game's result once it is over (Result; plies counts
	// the game's line).
	Result *Result `json:"result,omitempty"`
	// KnownResult: the game starts at its variant's start position, whose
	// result with best play is known (KnownResultOf).
	KnownResult *KnownResult `json:"known_result,omitempty"`
	// Complete: every ply was analysed (false when cut short).
	Complete bool `json:"complete"`
	// Line is the game's line in its file, when read from one.
	Line int `json:"line,omitempty"`
}

// Analyze values every ply of g: the position before it (after the game's
// history: a repetition ends the game), the played move, the loss, the
// best moves, and each player's summary. Each ply gets opts.Time. An
// illegal move is an error naming the ply. When ctx ends, it returns the
// plies done so far (Complete false) with ctx's error.
func (o *Oracle) Analyze(ctx context.Context, g Game, opts AnalyzeOptions) (Analysis, error) {
	end, err := g.replay()
	if err != nil {
		return Analysis{}, err
	}
	plies := end.Line
	an := Analysis{Position: g.Start.String(), Plies: []PlyAnalysis{}, GameOver: end.Over, End: end.End, Line: g.Line}
	if end.Over {
		an.FinalScore = &end.Final
	}
	an.Result, an.KnownResult = gameResult(end), KnownResultOf(g.Start)
	answers := make([]Answer, 0, len(plies))
	for i, pl := range plies {
		a, err := o.Solve(ctx, pl.Before, SolveOptions{AllMoves: true, History: end.Layer(i),
			Time: opts.Time, Nodes: opts.Nodes, NoPV: true})
		if ctx.Err() != nil {
			// Cut short: this ply's answer is not one to keep, nor its
			// error, ctx's when ctx ended while it waited for the solver.
			break
		}
		if err != nil {
			return an, fmt.Errorf("ply %d: %w", i+1, err)
		}
		answers = append(answers, a)
		if opts.Progress != nil {
			opts.Progress(i+1, len(plies))
		}
	}
	for i := range answers {
		an.Plies = append(an.Plies, plyAnalysis(i, plies, answers, end.KnownCaptures()))
	}
	an.Complete = len(answers) == len(plies)
	summarise(&an)
	if !an.Complete {
		return an, ctx.Err()
	}
	return an, nil
}

// plyAnalysis puts ply i together. The played move's value is taken from
// the next ply's value when that is exact (it is the value of the position
// the move led to, on this game's line), else from the ply's own move
// values. The played move never shows better than the position: a
// position is worth at least each of its moves, so a proven value bounds
// a move's estimate from above, and an estimated value below the played
// move's is raised to it (the move is then the best estimated). A played
// move proven worth the value is among the best moves even when the
// search, which proved the value, did not prove it.
//
// known says the game's captures are known (position.Game.KnownCaptures),
// so each ply's result counts them.
func plyAnalysis(i int, plies []position.Ply, answers []Answer, known bool) PlyAnalysis {
	pl, a := plies[i], answers[i]
	out := PlyAnalysis{Ply: i + 1, Player: a.Player, Position: a.Position, Move: Move(pl.Move.Pit),
		Captured: int(pl.Move.Captured), Again: pl.Move.MovesAgain(pl.Before.Position), Value: a.Value, BestMoves: a.BestMoves,
		BestMovesComplete: a.Exact && a.BestMovesComplete}
	mv, moveExact := a.Value, a.Exact
	for _, m := range a.Moves {
		if m.Move == out.Move {
			mv, moveExact = m.Value, m.Exact
		}
	}
	if i+1 < len(answers) && answers[i+1].Exact {
		mv, moveExact = pl.Move.Value(pl.Before.Position, answers[i+1].Value), true
	}
	switch {
	case a.Exact && mv > a.Value:
		mv = a.Value
	case !a.Exact && mv > a.Value:
		out.Value, out.BestMoves = mv, []Move{out.Move}
	case a.Exact && moveExact && mv == a.Value && !slices.Contains(out.BestMoves, out.Move):
		out.BestMoves = append(slices.Clone(out.BestMoves), out.Move)
		slices.Sort(out.BestMoves)
	}
	out.MoveValue, out.Exact = mv, a.Exact && moveExact
	out.Loss = max(0, out.Value-out.MoveValue)
	out.Class = Classify(out.Loss)
	before := pl.Before
	before.CapturesKnown = before.CapturesKnown || known // counted from a start whose captures are known
	out.Result = fromPositionResult(before.ResultOf(out.Value), a.Exact)
	return out
}

// summarise fills each player's summary from the plies.
func summarise(an *Analysis) {
	var losses [2][]int
	for k := range an.Players {
		an.Players[k].Player = k + 1
	}
	for _, p := range an.Plies {
		if p.Exact {
			an.ExactPlies++
		} else {
			an.EstimatedPlies++
		}
		if p.Move == Pass {
			continue
		}
		s := &an.Players[p.Player-1]
		s.Loss += p.Loss
		losses[p.Player-1] = append(losses[p.Player-1], p.Loss)
		switch p.Class {
		case ClassBest:
			s.Best++
		case ClassInaccuracy:
			s.Inaccuracy++
		case ClassMistake:
			s.Mistake++
		case ClassBlunder:
			s.Blunder++
		}
	}
	for k := range an.Players {
		an.Players[k].Accuracy = Accuracy(losses[k])
	}
}
