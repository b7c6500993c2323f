package tablebase

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// A layer's Badger database is written by a child process, this same
// program run again with writerEnv set to the staging directory: the
// parent streams the layer's keys and blocks to its stdin, the child puts
// them into a new database there, closes it and exits 0.
//
// Why a process: Badger writes its write-ahead log, its tables and its
// discard file through shared memory maps, from its own goroutines. On a
// file system that fills while they are written (by another process,
// after the free-space check passed) the kernel cannot back a page and
// the writer gets SIGBUS, which the Go runtime turns into a fatal error
// of the whole process: debug.SetPanicOnFault is per goroutine and cannot
// reach Badger's, and Badger creates and sizes its files itself, so they
// cannot be preallocated. In a child the fault kills only the child; the
// parent reads its end as a full disk and returns an error wrapping
// syscall.ENOSPC, one line, with nothing stored changed (the staging
// directory is deleted, as on any error). A panic inside Badger while
// writing, in any of its goroutines, likewise becomes an error.
const writerEnv = "MANCALA_TABLEBASE_WRITE_DB"

func init() {
	if stage := os.Getenv(writerEnv); stage != "" {
		os.Exit(runWriter(stage, os.Stdin, os.Stderr))
	}
}

// writerGCPercent is the writer's heap growth, in percent, before its
// collector runs: its heap is the layer's records passing through to
// Badger's memtables, all garbage soon, and at Go's default 100 the
// writer of kalah's layer 20 (49 MB of blocks) peaked at up to 238 MB of
// RSS, above the build's own 203 MiB; at 10, 177-184 MB (three runs each,
// 2026-12-06, the layer's sizes in random blocks).
const writerGCPercent = 10

// runWriter is the child: it writes the records read from in into a new
// Badger database in stage, and says what failed in one line on errOut.
func runWriter(stage string, in io.Reader, errOut io.Writer) int {
	debug.SetGCPercent(writerGCPercent)
	if err := writeKVs(stage, bufio.NewReaderSize(in, 1<<20)); err != nil {
		fmt.Fprintln(errOut, strings.ReplaceAll(err.Error(), "\n", " "))
		return 1
	}
	return 0
}

// writeKVs puts every record of in into a new database in stage and
// closes it cleanly.
func writeKVs(stage string, in io.Reader) error {
	db, err := badger.Open(badgerOptions(stage, false))
	if err != nil {
		return err
	}
	wb := db.NewWriteBatch()
	for err == nil {
		var key, value []byte
		if key, value, err = readKV(in); err == nil {
			err = wb.Set(key, value)
		}
	}
	if errors.Is(err, io.EOF) {
		err = wb.Flush()
	} else {
		wb.Cancel()
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeKV writes one key and value, each preceded by its length (4
// bytes, big-endian).
func writeKV(w io.Writer, key, value []byte) error {
	var n [8]byte
	binary.BigEndian.PutUint32(n[:4], uint32(len(key)))
	binary.BigEndian.PutUint32(n[4:], uint32(len(value)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	if _, err := w.Write(key); err != nil {
		return err
	}
	_, err := w.Write(value)
	return err
}

// readKV reads what writeKV wrote; io.EOF at a record boundary is
// the end of the stream.
func readKV(r io.Reader) (key, value []byte, err error) {
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("the layer's stream ended inside a record")
		}
		return nil, nil, err
	}
	buf := make([]byte, binary.BigEndian.Uint32(n[:4])+binary.BigEndian.Uint32(n[4:]))
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, nil, errors.New("the layer's stream ended inside a record")
	}
	k := binary.BigEndian.Uint32(n[:4])
	return buf[:k:k], buf[k:], nil
}

// writeDB writes the records that stream writes (writeKV) into a new
// database in stage, for layer n of the tablebase at dir, through a child
// process (see writerEnv).
func writeDB(dir, stage string, n int, stream func(io.Writer) error) error {
	self, err := selfPath()
	if err != nil {
		return fmt.Errorf("layer %d: cannot start the database writer: %w", n, err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), writerEnv+"="+stage, writerRaceOptions())
	cmd.SysProcAttr = writerAttr()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("layer %d: cannot start the database writer: %w", n, err)
	}
	bw := bufio.NewWriterSize(in, 1<<20)
	werr := stream(bw)
	if werr == nil {
		werr = bw.Flush()
	}
	if cerr := in.Close(); werr == nil {
		werr = cerr
	}
	if err := cmd.Wait(); err != nil {
		return writerFailed(dir, n, err, stderr.String())
	}
	return werr
}

// writerRaceOptions is the child's GORACE: the caller's options, with no
// sleep at exit. A program built with the race detector sleeps 1 s before
// exiting by default (atexit_sleep_ms), which made every layer of a test
// build under -race take a second more, and the tablebase tests run past
// ten minutes; a binary built without it ignores GORACE.
func writerRaceOptions() string {
	return "GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")
}

// writerFailed turns the writer's end into one line: a fault in a mapped
// file (SIGBUS) or ENOSPC is a full disk, wrapping syscall.ENOSPC;
// anything else names the writer's last line.
func writerFailed(dir string, n int, err error, stderr string) error {
	if strings.Contains(stderr, "SIGBUS") || strings.Contains(stderr, syscall.ENOSPC.Error()) {
		return fmt.Errorf("tablebase %s: the disk filled while layer %d was written: %w", dir, n, syscall.ENOSPC)
	}
	msg := err.Error()
	if line := lastLine(stderr); line != "" {
		msg = line
	}
	return fmt.Errorf("layer %d: writing its database failed: %s", n, clipText(msg, 200))
}

// lastLine returns the last non-empty line of s; for a Go fatal error,
// its first line, which names the fault.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// selfPath is the program to run as the writer: this one.
func selfPath() (string, error) {
	if runtime.GOOS == "linux" {
		return "/proc/self/exe", nil // works even if the binary was replaced since
	}
	return os.Executable()
}

// badgerOptions are the settings for our few, large values: blocks are
// already zstd frames, so Badger compresses nothing and needs no block
// cache; small memtables and value-log files keep memory and preallocated
// disk low; Badger's logging is off (the package prints nothing).
func badgerOptions(dir string, readOnly bool) badger.Options {
	return badger.DefaultOptions(dir).
		WithLogger(nil).
		WithReadOnly(readOnly).
		WithCompression(options.None).
		WithBlockCacheSize(0).
		WithMemTableSize(16 << 20).
		WithNumMemtables(2).
		WithValueLogFileSize(16 << 20).
		WithNumCompactors(2).
		WithMetricsEnabled(false).
		WithDetectConflicts(false)
}
