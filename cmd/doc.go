// Package cmd is the command-line interface: one file a command, each with
// an options struct, a constructor and a run function. Commands only parse
// flags, call the core packages and print; no rule or search logic lives
// here: solve, query and analyze get their answers from package oracle,
// which decides which tablebase serves a position and keeps the solvers.
// Results go to stdout, diagnostics and progress to stderr.
package cmd
