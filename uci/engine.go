package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/mancala-solver/mancala/oracle"
	"github.com/mancala-solver/mancala/position"
	"github.com/mancala-solver/mancala/solver"
)

// Config is the engine's settings at start-up; setoption changes them
// later.
type Config struct {
	// Variant is the game played; it must be Supported. Nil means
	// DefaultVariant.
	Variant *position.Variant
	// TBDir is the tablebase directory ("": the default directory, when it
	// holds the variant's layers); NoTB uses none.
	TBDir string
	NoTB  bool
	// HashMiB is the transposition table size; 0 means solver.DefaultHashMiB.
	HashMiB int
	// Threads is the number of search threads, 1..solver.MachineThreads();
	// 0 means runtime.NumCPU().
	Threads int
	// Name is the id name sent after uci; "" means "mancala".
	Name string
}

// DefaultVariant is the variant the engine plays unless told otherwise:
// oware with the repetition rule of Aalina's referee (each player takes
// the seeds on their own row), so that the engine values games as the
// samurai tournament and Aualé score them.
const DefaultVariant = "oware-own"

// maxHashMiB limits the Hash option; Threads's limit is the commands'
// --threads one, solver.MachineThreads.
const maxHashMiB = 16 << 10

// Engine is one protocol session: the game set up by the GUI, the options,
// and at most one search at a time. Output lines go to the writer given to
// New, whole lines under a lock, so that the search's lines and the
// replies to commands never mix.
type Engine struct {
	cfg   Config
	out   *output
	debug bool

	or   *oracle.Oracle // opened on the first search after an option change
	warm bool           // or's solver for the variant exists (warmUp)
	line *line
	// warming is closed when the warm-up started in the background
	// (startWarm) ends; nil when none is pending. Every command waits for
	// it first (Handle), so the warm-up never runs beside one.
	warming chan struct{}
	// beforeSearch, when not nil, is called as a search starts, before
	// its clock; tests read the engine's state there.
	beforeSearch func()

	mu   sync.Mutex // guards run and last
	run  *running   // the search under way, until its bestmove is being sent; nil none
	last *running   // the search whose bestmove went out last, or is going out
}

// New returns an engine that writes to out, set up at cfg.Variant's start
// position. It returns an error for an unsupported variant or a negative
// option.
func New(cfg Config, out io.Writer) (*Engine, error) {
	if cfg.Variant == nil {
		v, err := position.Lookup(DefaultVariant)
		if err != nil {
			return nil, err
		}
		cfg.Variant = v
	}
	switch {
	case Supported(cfg.Variant) != nil:
		return nil, Supported(cfg.Variant)
	case cfg.HashMiB < 0 || cfg.HashMiB > maxHashMiB:
		return nil, fmt.Errorf("hash %d MiB: want 1..%d", cfg.HashMiB, maxHashMiB)
	case cfg.Threads < 0 || cfg.Threads > solver.MachineThreads():
		return nil, fmt.Errorf("threads %d: want 1..%d", cfg.Threads, solver.MachineThreads())
	case cfg.NoTB && cfg.TBDir != "":
		return nil, errors.New("a tablebase directory and no tablebase: give one or the other")
	}
	if cfg.HashMiB == 0 {
		cfg.HashMiB = solver.DefaultHashMiB
	}
	if cfg.Threads == 0 {
		cfg.Threads = runtime.NumCPU()
	}
	if cfg.Name == "" {
		cfg.Name = "mancala"
	}
	e := &Engine{cfg: cfg, out: &output{w: out}}
	e.line = newLine(position.Setup{Variant: cfg.Variant, Position: cfg.Variant.Start(), CapturesKnown: true})
	return e, nil
}

// Run reads commands from in, one a line, until quit, the end of in, or
// ctx is done; then it stops any search (its bestmove is still sent) and
// closes the tablebases. Bad input never ends it (see Handle).
func (e *Engine) Run(ctx context.Context, in io.Reader) error {
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		readErr <- sc.Err()
		close(lines)
	}()
	defer e.Close()
	// Make the table and read the tablebase while the GUI is still
	// setting up, so that the first go spends its time searching.
	e.startWarm()
	for {
		select {
		case <-ctx.Done():
			return nil
		case l, ok := <-lines:
			if !ok {
				return <-readErr
			}
			if !e.Handle(l) {
				return nil
			}
		}
	}
}

// Close stops any search, waiting for its bestmove, and closes the
// tablebases.
func (e *Engine) Close() error {
	e.waitWarm()
	e.stopSearch() // quietly: quit after a finished search is not a stop without a search
	return e.closeOracle()
}

func (e *Engine) closeOracle() error {
	if e.or == nil {
		return nil
	}
	err := e.or.Close()
	e.or, e.warm = nil, false
	return err
}

// commands maps each command of the dialect to its handler.
var commands = map[string]func(e *Engine, args []string){
	"uci":        (*Engine).cmdUCI,
	"debug":      (*Engine).cmdDebug,
	"isready":    (*Engine).cmdIsReady,
	"setoption":  (*Engine).cmdSetOption,
	"ucinewgame": (*Engine).cmdNewGame,
	"position":   (*Engine).cmdPosition,
	"go":         (*Engine).cmdGo,
	"stop":       (*Engine).cmdStop,
	"ponderhit":  (*Engine).cmdPonderHit,
	"wait":       func(e *Engine, _ []string) { e.wait() },
}

// Handle runs one command line and reports whether the session goes on
// (false after quit). As UCI has it, leading tokens that are not a
// command are skipped; a line with no command, or a command with bad
// arguments, is dropped, with an `info string` line saying why when debug
// is on.
func (e *Engine) Handle(text string) bool {
	words := strings.Fields(text)
	for i, w := range words {
		if w == "quit" {
			e.waitWarm()
			return false
		}
		if run, ok := commands[w]; ok {
			if w != "uci" { // uci only reads the options: the handshake does not wait
				e.waitWarm() // no other command runs beside the warm-up
			}
			run(e, words[i+1:])
			return true
		}
	}
	e.waitWarm()
	if len(words) > 0 {
		e.debugf("unknown command %q", text)
	}
	return true
}

func (e *Engine) debugf(format string, args ...any) {
	if e.debug {
		e.out.send("info string " + fmt.Sprintf(format, args...))
	}
}

// cmdIsReady answers readyok, first making the search's transposition
// table when no search is under way and none exists (warmUp).
func (e *Engine) cmdIsReady(_ []string) {
	if !e.searching() {
		e.warmUp()
	}
	e.out.send("readyok")
}

// startWarm runs warmUp in the background, when the engine is not warm
// and no search is under way: at the start of a session and at
// ucinewgame, so that a GUI that sends go without isready still does not
// have the table made or the tablebase read inside a move's time.
func (e *Engine) startWarm() {
	if e.warm || e.warming != nil || e.searching() {
		return
	}
	done := make(chan struct{})
	e.warming = done
	go func() {
		defer close(done)
		e.warmUp()
	}()
}

// waitWarm waits for the background warm-up, if one is pending.
func (e *Engine) waitWarm() {
	if e.warming != nil {
		<-e.warming
		e.warming = nil
	}
}

// warmUp makes the oracle and its solver for the variant with a one-node
// search of the start position, so that allocating (and faulting in) a
// table of hundreds of MiB happens while the GUI waits for readyok, not in
// the first timed search; and builds the in-memory endgame tablebase
// (oracle.Oracle.Warm) that a timed search would otherwise wait for.
func (e *Engine) warmUp() {
	if e.warm {
		return
	}
	or, err := e.oracle()
	if err != nil {
		e.debugf("%v", err)
		return
	}
	v := e.cfg.Variant
	start := position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true}
	if _, err := or.Solve(context.Background(), start, oracle.SolveOptions{Nodes: 1, NoPV: true}); err != nil {
		e.debugf("%v", err)
		return
	}
	if err := or.Warm(context.Background(), v); err != nil {
		e.debugf("%v", err)
		return
	}
	e.warm = true
}

func (e *Engine) cmdUCI(_ []string) {
	e.out.send("id name " + e.cfg.Name)
	e.out.send("id author the mancala authors")
	tb := e.cfg.TBDir
	if tb == "" {
		tb = "<empty>"
	}
	e.out.send(fmt.Sprintf("option name Hash type spin default %d min 1 max %d", e.cfg.HashMiB, maxHashMiB))
	e.out.send(fmt.Sprintf("option name Threads type spin default %d min 1 max %d", e.cfg.Threads, solver.MachineThreads()))
	e.out.send("option name TablebaseDir type string default " + tb)
	e.out.send("option name Variant type combo default " + e.cfg.Variant.Name + variantVars())
	e.out.send("option name Ponder type check default true")
	e.out.send("uciok")
}

// variantVars lists the variants the dialect carries, as combo values.
func variantVars() string {
	var b strings.Builder
	for _, name := range SupportedNames() {
		b.WriteString(" var " + name)
	}
	return b.String()
}

// SupportedNames returns the names of the variants the dialect carries:
// every variant of six pits a row, and the six-pit kalah sizes.
func SupportedNames() []string {
	var names []string
	seen := map[string]bool{}
	add := func(v *position.Variant) {
		if Supported(v) == nil && !seen[v.Name] {
			names, seen[v.Name] = append(names, v.Name), true
		}
	}
	for _, name := range position.Names() {
		if v, err := position.Lookup(name); err == nil {
			add(v)
		}
	}
	for _, v := range position.KalahVariants() {
		add(v)
	}
	return names
}

func (e *Engine) cmdDebug(args []string) {
	switch {
	case len(args) > 0 && args[0] == "on":
		e.debug = true
	case len(args) > 0 && args[0] == "off":
		e.debug = false
	default:
		e.debug = !e.debug // as samurai: a bare debug toggles
	}
}

// cmdSetOption handles `setoption name N [value V]`. Options other than
// the engine's (OwnBook, UseLeaves, EngineTurn, ...) are accepted and
// ignored. Options are not changed during a search.
func (e *Engine) cmdSetOption(args []string) {
	name, value := optionArgs(args)
	if e.searching() {
		e.debugf("setoption %s: not while searching", name)
		return
	}
	var err error
	switch strings.ToLower(name) {
	case "hash":
		err = e.setSpin(&e.cfg.HashMiB, name, value, maxHashMiB)
	case "threads":
		err = e.setSpin(&e.cfg.Threads, name, value, solver.MachineThreads())
	case "tablebasedir":
		err = e.setTBDir(value)
	case "variant":
		err = e.setVariant(value)
	case "ponder":
	default:
		e.debugf("option %q ignored", name)
		return
	}
	if err != nil {
		e.debugf("setoption %s: %v", name, err)
	}
}

// optionArgs splits setoption's arguments: the name runs from "name" to
// "value", the value to the end of the line.
func optionArgs(args []string) (name, value string) {
	var n, v []string
	target := &n
	for i, a := range args {
		switch {
		case i == 0 && a == "name":
		case a == "value" && target == &n:
			target = &v
		default:
			*target = append(*target, a)
		}
	}
	return strings.Join(n, " "), strings.Join(v, " ")
}

func (e *Engine) setSpin(target *int, name, value string, max int) error {
	n, err := strconv.Atoi(value)
	if err != nil || n < 1 || n > max {
		return fmt.Errorf("value %q: want 1..%d", value, max)
	}
	*target = n
	return e.closeOracle() // reopened with the new setting
}

func (e *Engine) setTBDir(dir string) error {
	if dir == "<empty>" {
		dir = ""
	}
	if dir != "" {
		// The words of the commands' --tb check (cmd's checkTBDir).
		if st, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no such directory", dir)
		} else if err != nil || !st.IsDir() {
			return fmt.Errorf("%s: not a directory", dir)
		}
	}
	e.cfg.TBDir, e.cfg.NoTB = dir, false
	return e.closeOracle()
}

func (e *Engine) setVariant(name string) error {
	v, err := position.Lookup(name)
	if err != nil {
		return err
	}
	if err := Supported(v); err != nil {
		return err
	}
	e.cfg.Variant, e.warm = v, false
	e.line = newLine(position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true})
	return nil
}

func (e *Engine) cmdNewGame(_ []string) {
	if e.searching() {
		e.debugf("ucinewgame: not while searching")
		return
	}
	v := e.cfg.Variant
	e.line = newLine(position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true})
	e.startWarm()
}

// cmdPosition handles `position startpos|fen F [moves M]`. A bad position
// or an illegal move leaves the previous position in force.
func (e *Engine) cmdPosition(args []string) {
	l, err := e.parsePosition(args)
	if err != nil {
		e.debugf("position: %v", err)
		return
	}
	e.line = l
}

func (e *Engine) parsePosition(args []string) (*line, error) {
	v := e.cfg.Variant
	if len(args) == 0 {
		return nil, errors.New("want startpos or fen")
	}
	setup := position.Setup{Variant: v, Position: v.Start(), CapturesKnown: true}
	rest := args[1:]
	switch args[0] {
	case "startpos":
	case "fen":
		if len(rest) == 0 || rest[0] == "moves" {
			return nil, errors.New("fen without a position")
		}
		s, err := position.ParseFEN(v, rest[0])
		if err != nil {
			return nil, err
		}
		setup, rest = s, rest[1:]
	default:
		return nil, fmt.Errorf("%q: want startpos or fen", args[0])
	}
	l := newLine(setup)
	if len(rest) == 0 {
		return l, nil
	}
	if rest[0] != "moves" {
		return nil, fmt.Errorf("%q: want moves", rest[0])
	}
	if err := l.play(strings.Join(rest[1:], "")); err != nil {
		return nil, err
	}
	return l, nil
}

// oracle returns the oracle for the current options, opening it if need be.
func (e *Engine) oracle() (*oracle.Oracle, error) {
	if e.or != nil {
		return e.or, nil
	}
	// TBOptional: a directory without the current variant's layers (an
	// oware tablebase under oware-own, which has none) serves a plain
	// search; otherwise every go failed and answered the first legal move.
	// Play: searches for play, and oware-own takes oware's tablebase as
	// estimates (oracle.Config.Play). TBLoadSeeds: the layers a move's
	// search probes most are read into memory when the tablebase opens
	// (at isready), not decoded block by block inside a timed search: on
	// first use that took a whole 0.5 s move to depth 3. As many layers
	// as fit in oracle.TBLoadBudget: oware to 24 seeds on a 24 GiB
	// machine, the most a 500 ms search gains from (docs/engine.md).
	or, err := oracle.Open(oracle.Config{TBDir: e.cfg.TBDir, TBOptional: true, Play: true, NoTB: e.cfg.NoTB,
		MemTBSeeds: oracle.MemTBAuto, TBLoadSeeds: oracle.TBLoadFit, Threads: e.cfg.Threads, HashMiB: e.cfg.HashMiB})
	if err != nil {
		return nil, err
	}
	e.or = or
	return or, nil
}

// output writes whole lines to the GUI, one writer at a time.
type output struct {
	mu sync.Mutex
	w  io.Writer
}

func (o *output) send(line string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, _ = io.WriteString(o.w, line+"\n")
}
