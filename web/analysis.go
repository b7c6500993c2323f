package web

// Game analysis over oracle.Solve, ply by ply with the game's history.
// TEMPORARY: package oracle has no game analysis yet (branch answer is
// adding it, with the thresholds and accuracy formula of `mancala
// analyze`); when it has, Answers.Analyze calls it and this file goes.

import (
	"context"
	"strings"
	"time"

	"mancala/oracle"
	"mancala/position"
)

// analysedPly is one ply of `analyze --json` (notation.md).
type analysedPly struct {
	Ply       int           `json:"ply"`
	Player    int           `json:"player"`
	Position  string        `json:"position"`
	Move      oracle.Move   `json:"move"`
	Captured  int           `json:"captured"`
	Value     int           `json:"value"`
	MoveValue int           `json:"move_value"`
	Loss      int           `json:"loss"`
	Exact     bool          `json:"exact"`
	BestMoves []oracle.Move `json:"best_moves"`
	Class     string        `json:"class"`
}

type playerSummary struct {
	Player     int     `json:"player"`
	Loss       int     `json:"loss"`
	Accuracy   float64 `json:"accuracy"`
	Best       int     `json:"best"`
	Inaccuracy int     `json:"inaccuracy"`
	Mistake    int     `json:"mistake"`
	Blunder    int     `json:"blunder"`
}

type analysis struct {
	Position   string             `json:"position"`
	Plies      []analysedPly      `json:"plies"`
	Players    []playerSummary    `json:"players"`
	GameOver   bool               `json:"game_over"`
	FinalScore *[2]int            `json:"final_score,omitempty"`
	End        position.EndReason `json:"end,omitempty"`
}

func (a *Answers) Analyze(ctx context.Context, q AnalyzeQuery) ([]any, error) {
	var out []any
	for i, line := range strings.Split(q.Games, "\n") {
		text, _, _ := strings.Cut(line, "#")
		start, moves := gameFields(text)
		if start == "" {
			continue
		}
		an, err := a.analyzeGame(ctx, start, strings.Join(moves, " "), q.PlyTime)
		if err != nil {
			if isBadRequest(err) {
				return nil, BadRequestf("line %d: %v", i+1, err)
			}
			return nil, err
		}
		out = append(out, an)
	}
	return out, nil
}

func (a *Answers) analyzeGame(ctx context.Context, start, moves string, plyTime time.Duration) (analysis, error) {
	g, _, err := playGame(start, "")
	if err != nil {
		return analysis{}, err
	}
	pits, err := position.ParseMoves([]string{moves})
	if err != nil {
		return analysis{}, &BadRequest{Err: err}
	}
	an := analysis{Position: g.Setup.String(), Plies: []analysedPly{}, Players: []playerSummary{{Player: 1}, {Player: 2}}}
	history := []position.Position{}
	for i, pit := range pits {
		before := g.Setup
		p, err := g.Play(pit)
		if err != nil {
			return an, BadRequestf("ply %d: %v", i+1, err)
		}
		if pit == position.PassPit {
			continue // a forced pass named in the record: no choice, no ply to judge
		}
		ans, err := a.o.Solve(ctx, before, oracle.SolveOptions{AllMoves: true, History: history, Time: plyTime})
		if err != nil {
			return an, err
		}
		history = append(history, before.Position)
		ply := analysedPly{Ply: len(an.Plies) + 1, Player: p.Player, Position: before.String(), Move: oracle.Move(pit),
			Captured: p.Captured, Value: ans.Value, MoveValue: ans.Value, Exact: ans.Exact, BestMoves: ans.BestMoves}
		for _, m := range ans.Moves {
			if int(m.Move) == pit {
				ply.MoveValue, ply.Exact = m.Value, ans.Exact && m.Exact
			}
		}
		ply.Loss = max(ply.Value-ply.MoveValue, 0)
		ply.Class = lossClass(ply.Loss)
		an.Players[p.Player-1].add(ply)
		an.Plies = append(an.Plies, ply)
	}
	for i := range an.Players {
		an.Players[i].finish()
	}
	an.GameOver, an.End = g.Over, g.End
	if g.Over {
		an.FinalScore = &g.Final
	}
	return an, nil
}

// lossClass names a ply by the seeds it lost.
func lossClass(loss int) string {
	switch {
	case loss == 0:
		return "best"
	case loss <= 2:
		return "inaccuracy"
	case loss <= 5:
		return "mistake"
	}
	return "blunder"
}

func (s *playerSummary) add(ply analysedPly) {
	s.Loss += ply.Loss
	switch ply.Class {
	case "best":
		s.Best++
	case "inaccuracy":
		s.Inaccuracy++
	case "mistake":
		s.Mistake++
	default:
		s.Blunder++
	}
}

// finish sets the accuracy: the share of the player's plies that kept the
// value, in percent.
func (s *playerSummary) finish() {
	if n := s.Best + s.Inaccuracy + s.Mistake + s.Blunder; n > 0 {
		s.Accuracy = 100 * float64(s.Best) / float64(n)
	}
}
