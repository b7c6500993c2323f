package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// engine is one engine process speaking the protocol (package uci) on its
// standard input and output. Its lines are read by one goroutine into
// lines; a closed channel means the process closed its output.
type engine struct {
	name   string
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	done   chan struct{} // closed once the process has exited
	err    error         // the process's exit, once done
	name0  string        // the id name it sent, if any
	stderr *tailBuffer   // the end of its standard error
}

// ProtocolError is an engine's breach of the protocol or the rules: what
// ends a game as a loss for it. Reason is one line for people.
type ProtocolError struct{ Reason string }

func (e *ProtocolError) Error() string { return e.Reason }

func protocolErr(format string, args ...any) error {
	return &ProtocolError{Reason: fmt.Sprintf(format, args...)}
}

// startEngine starts command (a shell command line, run by sh -c) and
// waits up to timeout for its uciok and readyok.
func startEngine(ctx context.Context, name, command string, timeout time.Duration) (*engine, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", "exec "+command)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &tailBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	e := &engine{name: name, cmd: cmd, in: in, lines: make(chan string, 256), done: make(chan struct{}), stderr: stderr}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		close(e.lines)
	}()
	go func() {
		e.err = cmd.Wait()
		close(e.done)
	}()
	if err = e.send("uci"); err == nil {
		_, err = e.await("uciok", timeout)
	} else if e.exited(time.Second) {
		// Gone before it read "uci" (a race with its exit): its exit is
		// the reason, as when it exits after reading it.
		_, err = e.await("uciok", timeout)
	}
	if err == nil {
		err = e.ready(timeout)
	}
	if err != nil {
		err = e.startErr(err)
		e.close()
		return nil, err
	}
	return e, nil
}

// startErr is err, an error of the engine's start-up, without the
// engine's label (the caller names it by its command), or, when the shell
// could not run the command (exit status 126 or 127: not found or not
// executable), "cannot start: " and the shell's message, which the
// failed write or read would hide.
func (e *engine) startErr(err error) error {
	if pe := (*ProtocolError)(nil); errors.As(err, &pe) {
		// The caller names the engine with its command: drop the label.
		if r, ok := strings.CutPrefix(pe.Reason, e.name); ok {
			err = errors.New(strings.TrimPrefix(strings.TrimPrefix(r, ":"), " "))
		}
	}
	if !e.exited(time.Second) {
		return err // still running: its own breach
	}
	var exit *exec.ExitError
	if !errors.As(e.err, &exit) || exit.ExitCode() != 126 && exit.ExitCode() != 127 {
		return err
	}
	msg := e.stderr.lastLine()
	if msg == "" {
		msg = e.err.Error()
	}
	return fmt.Errorf("cannot start: %s", msg)
}

// tailBuffer keeps the end of an engine's standard error, for startErr.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 4 << 10

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > tailBytes {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-tailBytes:]...)
	}
	return len(p), nil
}

// lastLine is the last non-empty line written, "" if none.
func (b *tailBuffer) lastLine() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(b.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// send writes one command line.
func (e *engine) send(line string) error {
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		return protocolErr("%s: cannot write %q: the engine has gone (%v)", e.name, line, err)
	}
	return nil
}

// ready sends isready and waits for readyok.
func (e *engine) ready(timeout time.Duration) error {
	if err := e.send("isready"); err != nil {
		return err
	}
	_, err := e.await("readyok", timeout)
	return err
}

// await reads lines until one whose first word is word, and returns the
// line; an end of output or the timeout is a ProtocolError.
func (e *engine) await(word string, timeout time.Duration) (string, error) {
	return e.awaitCtx(context.Background(), word, timeout)
}

// errInterrupted: the match's context ended while an engine was thinking.
var errInterrupted = errors.New("interrupted")

// awaitCtx is await that also gives up, with errInterrupted, when ctx ends.
func (e *engine) awaitCtx(ctx context.Context, word string, timeout time.Duration) (string, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return "", errInterrupted
		case l, ok := <-e.lines:
			if !ok {
				return "", protocolErr("%s exited before %s%s", e.name, word, e.exitNote())
			}
			f := strings.Fields(l)
			if len(f) >= 3 && f[0] == "id" && f[1] == "name" {
				e.name0 = strings.Join(f[2:], " ")
			}
			if len(f) > 0 && f[0] == word {
				return l, nil
			}
		case <-timer.C:
			return "", protocolErr("%s: no %s within %v", e.name, word, timeout)
		}
	}
}

// exited reports whether the process has exited, waiting at most wait.
func (e *engine) exited(wait time.Duration) bool {
	select {
	case <-e.done:
		return true
	case <-time.After(wait):
		return false
	}
}

// exitNote is ", status S" once the process has exited, else "".
func (e *engine) exitNote() string {
	switch {
	case !e.exited(200 * time.Millisecond):
		return ""
	case e.err != nil:
		return " (" + e.err.Error() + ")"
	}
	return " (exit status 0)"
}

// bestmove sends position and go and waits up to timeout for bestmove,
// returning its move word.
func (e *engine) bestmove(ctx context.Context, position, goCmd string, timeout time.Duration) (string, time.Duration, error) {
	if err := e.send(position); err != nil {
		return "", 0, err
	}
	start := time.Now()
	if err := e.send(goCmd); err != nil {
		return "", 0, err
	}
	l, err := e.awaitCtx(ctx, "bestmove", timeout)
	took := time.Since(start)
	if err != nil {
		var pe *ProtocolError
		if errors.As(err, &pe) && strings.Contains(pe.Reason, "no bestmove within") {
			return "", took, protocolErr("%s: time forfeit, no bestmove within %v", e.name, timeout.Round(time.Millisecond))
		}
		return "", took, err
	}
	f := strings.Fields(l)
	if len(f) < 2 {
		return "", took, protocolErr("%s: %q names no move", e.name, l)
	}
	return f[1], took, nil
}

// close asks the engine to quit and kills it if it has not within a
// second; it waits for the process to end.
func (e *engine) close() {
	_ = e.send("quit")
	_ = e.in.Close()
	select {
	case <-e.done:
	case <-time.After(time.Second):
		_ = e.cmd.Process.Kill()
		<-e.done
	}
	for range e.lines { // drain, so the reader ends
	}
}
