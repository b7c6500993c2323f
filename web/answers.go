package web

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Oracle answers the API's questions. Each method returns a JSON-ready
// value with the fields of the matching command's --json (notation.md), or
// an error: a BadRequest when the input is malformed or illegal (the
// handler answers 400 with its message), a NotFound when a query's
// position is not in the tablebase (404), any other error when the server
// failed (500). Methods must stop when ctx ends; a search stopped by the
// deadline returns its estimate, not an error. Implementations must be
// safe for concurrent use; the server bounds how many searches run at once.
type Oracle interface {
	// Solve values a position and, with All, every legal move.
	Solve(ctx context.Context, q SolveQuery) (any, error)
	// Lookup answers a solve request at once when it can without a
	// search (a tablebase ready now holds the position, or the game is
	// over), as Solve would; ok false, with no error, means it needs a
	// search. The server runs look-ups beside the searches, not behind
	// them.
	Lookup(ctx context.Context, q SolveQuery) (res any, ok bool, err error)
	// Query probes the tablebase for a position.
	Query(ctx context.Context, position string) (any, error)
	// Play applies moves (notation.md: pit numbers and "pass", space- or
	// comma-separated) to a position with every end rule.
	Play(ctx context.Context, position, moves string) (any, error)
	// Analyze analyses games, one a line (the analyze format), and
	// returns one object a game.
	Analyze(ctx context.Context, q AnalyzeQuery) ([]any, error)
	// Variants describes the variants, for drawing boards.
	Variants() []VariantInfo
}

// SolveQuery is a solve request.
type SolveQuery struct {
	Position string
	// Time bounds the search; the server has capped it already.
	Time time.Duration
	// All asks for every legal move's value.
	All bool
}

// AnalyzeQuery is an analyze request.
type AnalyzeQuery struct {
	// Games is the request body: one game a line, a start position then
	// its moves; blank lines and # comments are skipped.
	Games string
	// PlyTime bounds the search of each ply's position. The whole request
	// is bounded by ctx's deadline as well.
	PlyTime time.Duration
}

// VariantInfo is what a page needs to draw a variant's board and to
// offer it in a picker.
type VariantInfo struct {
	Name      string `json:"name"`
	Pits      int    `json:"pits"`      // pits a row
	Seeds     int    `json:"seeds"`     // seeds in the start position
	PitSeeds  int    `json:"pit_seeds"` // seeds a pit in the start position
	Clockwise bool   `json:"clockwise"` // sowing direction (rules.md section 0)
	Start     string `json:"start"`     // the start position string
	// Stores: the board has a store per player that the sowing passes
	// through (kalah); the position's captures CAP1-CAP2 are the seeds in
	// them (position.Variant.HasStores).
	Stores bool `json:"stores"`
	// Rules names the variant's rule set: its name without the size
	// (notation.md), so that the sizes of one rule set share it: "kalah"
	// for kalah and kalah-MxN, "kalah-std" for kalah-std and
	// kalah-std-MxN; a variant of one size only has its own name.
	Rules string `json:"rules"`
}

// BadRequest is an Oracle error caused by the request: a position that does
// not parse, an illegal move, a malformed game. Its message names the bad
// part and is shown to the user.
type BadRequest struct{ Err error }

func (e *BadRequest) Error() string { return e.Err.Error() }
func (e *BadRequest) Unwrap() error { return e.Err }

// BadRequestf returns a BadRequest with a formatted message.
func BadRequestf(format string, args ...any) error {
	return &BadRequest{Err: fmt.Errorf(format, args...)}
}

// NotFound is an Oracle error for a position the tablebase does not hold
// (query); the handler answers 404 with its message.
type NotFound struct{ Err error }

func (e *NotFound) Error() string { return e.Err.Error() }
func (e *NotFound) Unwrap() error { return e.Err }

// isBadRequest reports whether err is, or wraps, a BadRequest.
func isBadRequest(err error) bool {
	var bad *BadRequest
	return errors.As(err, &bad)
}
