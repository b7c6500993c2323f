// Package cmd is the command-line interface: one file a command, each with
// an options struct, a constructor and a run function. Commands only parse
// flags, call the core packages and print; no rule or search logic lives
// here: solve, query and analyze get their answers from package oracle,
// which decides which tablebase serves a position and keeps the solvers.
// Results go to stdout, diagnostics and progress to stderr.
//
// # Shared helpers
//
// Every command uses these, so that input, errors and signals behave the
// same everywhere (docs/notation.md describes the user's side):
//
//   - Positions: parsePosition(arg) for one argument; readPositions(in, arg)
//     for an argument that may be StdinArg ("-"): one position a line from
//     stdin, blank lines and # comments skipped, every line parsed before
//     any work starts, errors naming the line ("stdin line 3: ..."), an
//     empty stdin an error that says so. readLines(in, comments, what) is
//     the same for other kinds of line (games); every line reader goes
//     through internal/lines (lines.Each: up to 1 MiB a line).
//     Answers to "-" are JSON Lines under --json (writeJSONLine).
//   - Moves: position.SplitMoves and Variant.ParseMove / ParseMoves read a
//     move list (errors name the move's place in the list); moves that name
//     their side (dialect letters, PlayStrategy squares) need the position:
//     Variant.ParseMoveAt, as oracle.Play and oracle.ParseGame use it; play.go shows
//     how a command words oracle.Play's *MoveError, adding the legal moves
//     (legalMovesNote), and negativeMoves (moves.go) makes "-1" a bad move
//     rather than an unknown flag for play and analyze (set it with
//     SetFlagErrorFunc).
//   - Signals (signals.go): Execute runs every command under a context
//     that SIGINT and SIGTERM cancel with an *Interrupted cause. A command
//     that watches c.Context() is wrapped in stopsCleanly(...): it prints
//     what it has done so far and returns, and Execute turns any error (or
//     none) into exit status 130 (SIGINT) or 143 (SIGTERM). Other commands
//     are ended at once with that status. A command keeps its own message
//     ("interrupted: layers 0..9 are stored ...") unless it only says that
//     a context was cancelled. No command installs a handler of its own:
//     serve stops cleanly too, its server shutting down gracefully when
//     c.Context() ends.
//   - Errors: return an error and Execute prints it as one line on stderr
//     with status 1; ExitError carries another status (query's 3).
//   - Completion (complete.go): the first argument of every command whose
//     Use starts with POS or VARIANT, and every --variant flag, complete to
//     variant names, with no code in the command.
//   - --json: addJSONFlag; writeJSON for one document.
//
// # The command reference
//
// docs/cli.md is generated from this tree's help texts by
// internal/cmd/gendocs; after changing a Short, Long, Example or flag
// text, run `go generate ./cmd` (its test fails on a stale page).
package cmd

//go:generate go run ../internal/cmd/gendocs ../docs/cli.md
