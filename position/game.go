package position

import "fmt"

// Game plays a game out from a setup with every end rule of rules.md: the
// variant's own end, the 25-seed stop (awari, oware) and repetition
// (section 0). Passes are applied automatically. Unknown captures count from
// 0-0, as in the shared vectors.
type Game struct {
	Setup
	// StartPassed: the player named by the setup had to pass at once.
	StartPassed bool
	// NoStopAt: the 25-seed stop is not applied (NewGameNoStopAt).
	NoStopAt bool
	Over     bool
	End      EndReason // why the game ended, once Over
	Final    [2]int    // player 1's and player 2's final scores, once Over
	seen     map[Position]bool
	// passPending: a forced pass was just applied, so a "pass" move may
	// name it (as a principal variation does) without changing anything.
	passPending bool
}

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

// Played is the result of one move in a game.
type Played struct {
	Player   int  // the player who moved (or passed), 1 or 2
	Pit      int  // the pit played, or PassPit
	Captured int  // seeds the move captured
	Passed   bool // the next player had to pass, so the mover moves again
}

// NewGame starts a game at s, applying an automatic pass and checking
// whether the game is already over.
func NewGame(s Setup) *Game { return newGame(s, false) }

// NewGameNoStopAt is NewGame without the 25-seed stop, as values are
// reckoned (rules.md section 6), so that a principal variation replays to
// its end.
func NewGameNoStopAt(s Setup) *Game { return newGame(s, true) }

func newGame(s Setup, noStopAt bool) *Game {
	g := &Game{Setup: s, NoStopAt: noStopAt, seen: map[Position]bool{}}
	g.StartPassed = g.settle()
	g.passPending = g.StartPassed
	return g
}

// Play applies one move. Passes are applied automatically, but a PassPit
// right after one names it and is accepted, changing nothing, so that a
// principal variation with its passes can be replayed. An illegal move
// returns an error naming it and the reason, and leaves the game
// unchanged.
func (g *Game) Play(pit int) (Played, error) {
	if pit == PassPit && g.passPending {
		g.passPending = false
		return Played{Player: Opponent(g.Position.Player()), Pit: PassPit}, nil
	}
	if g.Over {
		return Played{}, fmt.Errorf("move %s: the game is over (%s)", MoveString(pit), g.End)
	}
	m, err := g.Variant.MakeMove(g.Position, pit)
	if err != nil {
		return Played{}, err
	}
	player := g.Position.Player()
	g.Captured[g.Position.Side] += int(m.Captured)
	g.Position = m.Next
	passed := g.settle()
	g.passPending = passed
	return Played{Player: player, Pit: pit, Captured: int(m.Captured), Passed: passed}, nil
}

// settle applies the end rules and any automatic pass to the position just
// reached, and records it for repetition. It reports whether a pass was
// applied.
func (g *Game) settle() (passed bool) {
	v := g.Variant
	if v.StopAt > 0 && !g.NoStopAt && (g.Captured[0] >= v.StopAt || g.Captured[1] >= v.StopAt) {
		row1, row2 := g.Position.Rows()
		g.finish(EndStopAt, RowSeeds(row1), RowSeeds(row2))
		return false
	}
	var buf [MaxPits]Move
	n := v.Moves(g.Position, &buf)
	if n == 0 {
		own, opp := v.Shares(g.Position)
		if g.Position.Side == 1 {
			own, opp = opp, own
		}
		g.finish(g.endReason(), own, opp)
		return false
	}
	if buf[0].IsPass() {
		g.Position, passed = buf[0].Next, true
	}
	if g.seen[g.Position] {
		own, opp := v.RepetitionShares(g.Position)
		if g.Position.Side == 1 {
			own, opp = opp, own
		}
		g.finish(EndRepetition, own, opp)
		return passed
	}
	g.seen[g.Position] = true
	return passed
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
