package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// One rule for SIGINT (Ctrl-C) and SIGTERM (kill, timeout) in every
// command: the command's context is cancelled with an *Interrupted cause;
// a command that stops cleanly prints what it has done so far and returns;
// the exit status is 128 + the signal number (130 for SIGINT, 143 for
// SIGTERM), whatever the command returned. A command that does not stop on
// its context (it is not marked with stopsCleanly) is ended at once with
// that status. A second signal always ends the process at once.

// Interrupted is the cause of a command context cancelled by a signal.
type Interrupted struct{ Signal syscall.Signal }

func (e *Interrupted) Error() string { return "interrupted by " + signalName(e.Signal) }

// Is makes an interruption a context.Canceled, as code below cmd checks.
func (e *Interrupted) Is(target error) bool { return target == context.Canceled }

// ExitCode is the shell's status for a process ended by the signal.
func (e *Interrupted) ExitCode() int { return 128 + int(e.Signal) }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// interruption returns the signal that cancelled ctx, or nil.
func interruption(ctx context.Context) *Interrupted {
	var in *Interrupted
	if ctx.Err() != nil && errors.As(context.Cause(ctx), &in) {
		return in
	}
	return nil
}

// stopsCleanlyKey marks a command that watches its context and prints its
// partial results when a signal cancels it.
const stopsCleanlyKey = "github.com/mancala-solver/mancala/stops-cleanly"

// stopsCleanly marks c as stopping by itself on a signal (see above).
func stopsCleanly(c *cobra.Command) *cobra.Command {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[stopsCleanlyKey] = "yes"
	return c
}

// signalContext returns a context that SIGINT and SIGTERM cancel with an
// *Interrupted cause, and the function that stops listening. running is
// the command being run (nil for none); unless it stops cleanly, the first
// signal ends the process at once, with a line on errOut.
func signalContext(parent context.Context, errOut io.Writer, running *cobra.Command) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			in := &Interrupted{Signal: s.(syscall.Signal)}
			cancel(in)
			if running == nil || running.Annotations[stopsCleanlyKey] == "" {
				exitNow(errOut, in)
			}
			select {
			case s := <-ch:
				exitNow(errOut, &Interrupted{Signal: s.(syscall.Signal)})
			case <-done:
			}
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

func exitNow(errOut io.Writer, in *Interrupted) {
	fmt.Fprintf(errOut, "mancala: %v\n", in)
	os.Exit(in.ExitCode())
}

// interruptedError gives the error to report when in stopped the command
// that returned err: its exit code is the signal's, and its message is
// err's, unless err only says that a context was cancelled.
func interruptedError(in *Interrupted, err error) error {
	var exit *ExitError
	if errors.As(err, &exit) {
		err = exit.Err
	}
	if err == nil || strings.Contains(err.Error(), context.Canceled.Error()) {
		err = in
	}
	return &ExitError{Code: in.ExitCode(), Err: err}
}
