//go:build linux

package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mancalaProcess is the test binary run as mancala, with its stderr read
// line by line.
type mancalaProcess struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	stderr *bufio.Scanner
	errLog strings.Builder
}

func startMancala(t *testing.T, env []string, args ...string) *mancalaProcess {
	t.Helper()
	p := &mancalaProcess{cmd: exec.Command(os.Args[0], args...)}
	p.cmd.Env = append(append(os.Environ(), runMainEnv+"=1"), env...)
	p.cmd.Stdout = &p.stdout
	errPipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.stderr = bufio.NewScanner(errPipe)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill() })
	return p
}

// waitForLine reads stderr until a line starts with prefix.
func (p *mancalaProcess) waitForLine(t *testing.T, prefix string) {
	t.Helper()
	for p.stderr.Scan() {
		p.errLog.WriteString(p.stderr.Text() + "\n")
		if strings.HasPrefix(p.stderr.Text(), prefix) {
			return
		}
	}
	t.Fatalf("stderr ended without a line %q:\n%s", prefix, p.errLog.String())
}

// waitForCPU waits until the process has used at least d of CPU time, so
// that it is past start-up and working, whatever the machine's load.
func (p *mancalaProcess) waitForCPU(t *testing.T, d time.Duration) {
	t.Helper()
	for {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/stat")
		if err != nil {
			t.Fatal(err)
		}
		// Fields 14 and 15 (after the command name in parentheses) are
		// user and system time in clock ticks, 100 a second on Linux.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+2:]))
		user, _ := strconv.Atoi(fields[11])
		system, _ := strconv.Atoi(fields[12])
		if time.Duration(user+system)*10*time.Millisecond >= d {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// finish signals the process, waits for it, and returns its exit code and
// the rest of its stderr.
func (p *mancalaProcess) finish(t *testing.T, sig syscall.Signal) (int, string) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(p.stderrReader())
	err := p.cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return p.cmd.ProcessState.ExitCode(), p.errLog.String() + string(rest)
}

func (p *mancalaProcess) stderrReader() io.Reader {
	var b strings.Builder
	for p.stderr.Scan() {
		b.WriteString(p.stderr.Text() + "\n")
	}
	return strings.NewReader(b.String())
}

// Ctrl-C on bench keeps the figures already measured: they are printed,
// and the exit status is 130.
func TestBenchInterruptKeepsFigures(t *testing.T) {
	p := startMancala(t, nil, "bench", "perft", "sow", "--variant", "djenon-aboure", "--seconds", "60", "--runs", "1")
	p.waitForLine(t, "bench: perft djenon-aboure perft depth 12, 1 thread: ")
	p.waitForLine(t, "bench: measuring sow djenon-aboure make-move packed")
	code, stderr := p.finish(t, syscall.SIGINT)
	if code != 130 {
		t.Errorf("exit status %d, want 130; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(p.stdout.String(), "perft depth 12") {
		t.Errorf("the measured figure is not printed:\n%s", p.stdout.String())
	}
	if strings.Contains(p.stdout.String(), "make-move") {
		t.Errorf("the figure cut short is printed:\n%s", p.stdout.String())
	}
	if !strings.Contains(stderr, "mancala: interrupted: 1 figure measured, printed above") {
		t.Errorf("stderr does not say it was interrupted:\n%s", stderr)
	}
}

// SIGTERM on `bench build` removes its temporary tablebase and exits 143.
func TestBenchTermRemovesTablebase(t *testing.T) {
	tmp := t.TempDir()
	p := startMancala(t, []string{"TMPDIR=" + tmp}, "bench", "build", "--variant", "akon", "--seconds", "30", "--runs", "1")
	p.waitForLine(t, "bench: measuring build akon")
	for entries, _ := os.ReadDir(tmp); len(entries) == 0; entries, _ = os.ReadDir(tmp) {
		time.Sleep(10 * time.Millisecond)
	}
	p.waitForCPU(t, 300*time.Millisecond)
	code, stderr := p.finish(t, syscall.SIGTERM)
	if code != 143 {
		t.Errorf("exit status %d, want 143; stderr:\n%s", code, stderr)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("%d files left in TMPDIR: %v", len(entries), entries[0].Name())
	}
}

// SIGTERM on solve prints the estimate reached so far and exits 143.
func TestSolveTermPrintsEstimate(t *testing.T) {
	p := startMancala(t, nil, "solve", "awari", "--no-tb", "--time", "0", "--threads", "1", "--hash", "16")
	p.waitForCPU(t, 500*time.Millisecond)
	code, stderr := p.finish(t, syscall.SIGTERM)
	if code != 143 {
		t.Errorf("exit status %d, want 143; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(p.stdout.String(), "value: ") || !strings.Contains(stderr, "interrupted by SIGTERM") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", p.stdout.String(), stderr)
	}
}

// A command that does not stop by itself (perft) ends at once on SIGINT,
// with status 130.
func TestPerftInterruptExits(t *testing.T) {
	p := startMancala(t, nil, "perft", "awari", "--depth", "30")
	p.waitForCPU(t, 200*time.Millisecond)
	code, stderr := p.finish(t, syscall.SIGINT)
	if code != 130 || !strings.Contains(stderr, "mancala: interrupted by SIGINT") {
		t.Errorf("exit status %d, want 130; stderr:\n%s", code, stderr)
	}
}

// Ctrl-C on build keeps the complete layers, says how to resume, and exits
// 130, as every command does.
func TestBuildInterrupt(t *testing.T) {
	p := startMancala(t, nil, "build", "akon", "--max-seeds", "16", "--tb", t.TempDir(), "--threads", "1")
	p.waitForCPU(t, 500*time.Millisecond)
	code, stderr := p.finish(t, syscall.SIGINT)
	if code != 130 || !strings.Contains(stderr, "run the same command to resume") {
		t.Errorf("exit status %d, want 130; stderr:\n%s", code, stderr)
	}
}

// serve under the one signal rule: SIGTERM or SIGINT during a search makes
// the search answer with what it has (status 200, an estimate), then the
// server stops gracefully and exits 143 or 130. The search is known to be
// in flight, without timing, because with one search slot a second
// search (an instant one when it gets the slot) is refused (503) while it
// runs.
func TestServeSignalAnswersSearchInFlight(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(signalName(sig), func(t *testing.T) { testServeSignal(t, sig) })
	}
}

func testServeSignal(t *testing.T, sig syscall.Signal) {
	cmd := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:0", "--time", "2m", "--searches", "1", "--threads", "1", "--hash", "16")
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "XDG_DATA_HOME="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	line, err := bufio.NewReader(out).ReadString('\n')
	addr, ok := strings.CutPrefix(line, "serving on http://")
	addr, _, found := strings.Cut(addr, "/ ")
	if err != nil || !ok || !found {
		t.Fatalf("first line %q, %v", line, err)
	}
	base := "http://" + addr

	// The awari start is not proven in 2 minutes: the search runs until
	// the signal stops it.
	type reply struct {
		status int
		body   string
		err    error
	}
	replies := make(chan reply, 1)
	go func() {
		resp, err := http.Get(base + "/api/solve?position=awari")
		if err != nil {
			replies <- reply{err: err}
			return
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		replies <- reply{resp.StatusCode, string(body), err}
	}()
	for {
		// An analysis of a game without moves takes a search slot and
		// none of its time.
		resp, err := http.Post(base+"/api/analyze", "text/plain", strings.NewReader("awari\n"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable {
			break // the search holds the only slot
		}
		select {
		case r := <-replies:
			t.Fatalf("the search answered before the signal: %d %q %v", r.status, r.body, r.err)
		default:
		}
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	r := <-replies
	if r.err != nil || r.status != http.StatusOK || !strings.Contains(r.body, `"value"`) || !strings.Contains(r.body, `"exact":false`) {
		t.Errorf("search in flight: status %d, %v, body %q; want 200 with an estimate", r.status, r.err, r.body)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	want := 128 + int(sig)
	if code := cmd.ProcessState.ExitCode(); code != want || !strings.Contains(stderr.String(), "serve: stopped") {
		t.Errorf("exit status %d, want %d; stderr:\n%s", code, want, stderr.String())
	}
}

func signalName(s syscall.Signal) string {
	if s == syscall.SIGINT {
		return "SIGINT"
	}
	return "SIGTERM"
}
