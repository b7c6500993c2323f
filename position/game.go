package position

import "fmt"

// Game plays a game out from a setup with every end rule of rules.md: the
// variant's own end, the 25-seed stop (awari, oware) and repetition
// (section 0). Passes are applied automatically. Unknown captures count from
// 0-0, as in the shared vectors. Line records the game as played; it is
// what `play`, `analyze` and the web API report, so the forced-pass
// bookkeeping lives here alone.
type Game struct {
	Setup
	// NoStopAt: the 25-seed stop is not applied (NewGameNoStopAt).
	NoStopAt bool
	Over     bool
	End      EndReason // why the game ended, once Over
	Final    [2]int    // player 1's and player 2's final scores, once Over
	// Line is every ply played so far, oldest first: each move, and each
	// pass the rules forced as a ply of its own (the start's included),
	// whether or not the pass was named.
	Line []Ply
	seen map[Position]bool
	// startKnown: the start's captures were known (Setup.KnownCaptures).
	startKnown bool
	// passPending: a forced pass was just applied, so a "pass" move may
	// name it (as a principal variation does) without changing anything.
	passPending bool
}

// Ply is one ply of a game's line: the position it was played from, with
// the captures before it, and the move (Pit, Captured, Next; PassPit for
// a forced pass).
type Ply struct {
	Before Setup
	Move   Move
}

// Player is the player who made the ply, 1 or 2.
func (p Ply) Player() int { return p.Before.Position.Player() }

// EndReason says why a game ended, by a short machine name (notation.md:
// the "end" field of `play --json` and `analyze --json`). Prose for people
// is the commands' business.
type EndReason string

// Reasons a game ends (rules.md sections 0 and 2-5).
const (
	EndNoSeeds    EndReason = "no seeds"      // the mover has no seeds and does not pass
	EndCannotFeed EndReason = "cannot feed"   // the opponent has no seeds and no move of the mover feeds them
	EndNoMove     EndReason = "no legal move" // the mover has seeds but no legal move, and does not pass
	EndOneEach    EndReason = "one seed each" // one seed on each row, where that ends the game
	EndEmptyRow   EndReason = "empty row"     // a row is empty, where that ends the game (kalah)
	EndStopAt     EndReason = "stop at 25"    // a player has captured the variant's StopAt seeds
	EndRepetition EndReason = "repetition"    // a position occurred again; the board goes as Variant.RepetitionShares says
)

// NewGame starts a game at s, applying a forced pass (the first ply of
// Line) and checking whether the game is already over.
func NewGame(s Setup) *Game { return newGame(s, false) }

// NewGameNoStopAt is NewGame without the 25-seed stop, as values are
// reckoned (rules.md section 6), so that a principal variation replays to
// its end.
func NewGameNoStopAt(s Setup) *Game { return newGame(s, true) }

func newGame(s Setup, noStopAt bool) *Game {
	g := &Game{Setup: s, NoStopAt: noStopAt, seen: map[Position]bool{}, startKnown: s.KnownCaptures()}
	g.settle()
	return g
}

// StartPassed reports whether the player named by the setup had to pass
// at once: the line starts with that forced pass.
func (g *Game) StartPassed() bool { return len(g.Line) > 0 && g.Line[0].Move.IsPass() }

// Play applies one move and returns the plies it added to Line: the move,
// then the opponent's forced pass if there is one. Passes are applied
// automatically, but a PassPit right after one names it and is accepted,
// adding no ply, so that a principal variation with its passes can be
// replayed. An illegal move returns an error naming it and the reason, and
// leaves the game unchanged.
func (g *Game) Play(pit int) ([]Ply, error) {
	if pit == PassPit && g.passPending {
		g.passPending = false
		return nil, nil
	}
	if g.Over {
		return nil, fmt.Errorf("move %s: the game is over (%s)", MoveString(pit), g.End)
	}
	m, err := g.Variant.MakeMove(g.Position, pit)
	if err != nil {
		return nil, err
	}
	n := len(g.Line)
	g.Line = append(g.Line, Ply{Before: g.Setup, Move: m})
	g.Captured[g.Position.Side] += int(m.Captured)
	g.Position = m.Next
	g.settle()
	return g.Line[n:], nil
}

// Layer returns the positions played from before ply i of Line since the
// last ply that started a layer (Variant.StartsLayer), oldest first: the
// earlier positions ply i's position could return to, for the repetition
// rule. It is empty for kalah, where no position recurs.
func (g *Game) Layer(i int) []Position {
	var layer []Position
	for _, p := range g.Line[:i] {
		if g.Variant.StartsLayer(p.Move) {
			layer = layer[:0]
		} else {
			layer = append(layer, p.Before.Position)
		}
	}
	return layer
}

// settle applies the end rules and any forced pass (a ply of Line) to the
// position just reached, and records it for repetition.
func (g *Game) settle() {
	v := g.Variant
	g.passPending = false
	if v.StopAt > 0 && !g.NoStopAt && (g.Captured[0] >= v.StopAt || g.Captured[1] >= v.StopAt) {
		row1, row2 := g.Position.Rows()
		g.finish(EndStopAt, RowSeeds(row1), RowSeeds(row2))
		return
	}
	var buf [MaxPits]Move
	n := v.Moves(g.Position, &buf)
	if n == 0 {
		own, opp := v.Shares(g.Position)
		if g.Position.Side == 1 {
			own, opp = opp, own
		}
		g.finish(g.endReason(), own, opp)
		return
	}
	if buf[0].IsPass() {
		g.Line = append(g.Line, Ply{Before: g.Setup, Move: buf[0]})
		g.Position, g.passPending = buf[0].Next, true
	}
	if g.seen[g.Position] {
		own, opp := v.RepetitionShares(g.Position)
		if g.Position.Side == 1 {
			own, opp = opp, own
		}
		g.finish(EndRepetition, own, opp)
		return
	}
	g.seen[g.Position] = true
}

// endReason names why a position without moves ends the game.
func (g *Game) endReason() EndReason {
	p := g.Position
	switch {
	case g.Variant.OneEachEnds && RowSeeds(p.Own) == 1 && RowSeeds(p.Opp) == 1:
		return EndOneEach
	case p.Own == 0:
		return EndNoSeeds
	case g.Variant.EmptyRowEnds && p.Opp == 0:
		return EndEmptyRow
	case p.Opp == 0 && g.Variant.Feed != FeedNever:
		return EndCannotFeed
	}
	return EndNoMove
}

func (g *Game) finish(reason EndReason, share1, share2 int) {
	g.Over, g.End = true, reason
	g.Final = [2]int{g.Captured[0] + share1, g.Captured[1] + share2}
}
