package tablebase

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/klauspost/compress/zstd"

	"mancala/position"
)

// BlockSize is the number of positions (int8 values, in rank order) in one
// stored block: 64 KiB before compression. A layer of L positions is
// ceil(L/BlockSize) blocks, the last one short.
const BlockSize = 1 << 16

// ToolVersion names the builder in each layer's metadata; bump it when the
// stored format changes.
const ToolVersion = "mancala-tablebase/2"

// ErrInUse is returned (wrapped, with the directory) when another process
// holds the tablebase: a build excludes everyone else; probers, verify and
// stats exclude only a build.
var ErrInUse = errors.New("in use by another process")

// ErrNoTablebase is returned (wrapped) by OpenProber when the directory
// holds no database at all.
var ErrNoTablebase = errors.New("no tablebase")

// Key layout. One Badger database holds every variant; all integers are
// big-endian, so keys sort by family, variant, rules version, layer and
// block, and one prefix scan finds a variant's layers:
//
//	meta:  'M' | variant ID (1 byte) | rules version (2) | seeds (1)
//	       -> JSON LayerInfo; written last, so present only for a complete layer
//	block: 'B' | variant ID (1 byte) | rules version (2) | seeds (1) | block (4)
//	       -> zstd frame (with its checksum) of up to BlockSize int8 values
//	dist:  'D' | the same as block -> the block's distances (distance.go)
//
// The rules version is position.RulesVersion: after a rule change, keys
// differ, so layers built under other rules are simply absent.
const (
	familyMeta  byte = 'M'
	familyBlock byte = 'B'
)

// variantPrefix is the key prefix of one variant's keys of a family.
func variantPrefix(family byte, v *position.Variant) []byte {
	k := make([]byte, 4, 9)
	k[0], k[1] = family, v.ID
	binary.BigEndian.PutUint16(k[2:], position.RulesVersion)
	return k
}

// metaKey is the key of layer n's metadata.
func metaKey(v *position.Variant, n int) []byte {
	return append(variantPrefix(familyMeta, v), byte(n))
}

// blockKey is the key of block b of layer n.
func blockKey(v *position.Variant, n int, b int) []byte {
	k := append(variantPrefix(familyBlock, v), byte(n), 0, 0, 0, 0)
	binary.BigEndian.PutUint32(k[5:], uint32(b))
	return k
}

// LayerInfo is a layer's metadata, stored as JSON under its meta key.
type LayerInfo struct {
	Variant      string    `json:"variant"`
	RulesVersion int       `json:"rules_version"`
	Seeds        int       `json:"seeds"`
	Positions    int64     `json:"positions"`
	BlockSize    int       `json:"block_size"`
	Blocks       int       `json:"blocks"`
	Checksum     uint64    `json:"xxhash64"`     // xxHash64 of the layer's values as bytes
	StoredBytes  int64     `json:"stored_bytes"` // compressed size of its blocks
	InnerMoves   int64     `json:"inner_moves"`  // moves that stay in the layer (graph edges)
	Method       string    `json:"method"`       // "graph" or "iteration" (see doc.go)
	Seconds      float64   `json:"seconds"`      // wall time to build the layer
	BuiltAt      time.Time `json:"built_at"`
	ToolVersion  string    `json:"tool_version"`
	// Format is the stored format (distance.go); 0 for layers written
	// before it was recorded.
	Format           int    `json:"format,omitempty"`
	DistanceChecksum uint64 `json:"distance_xxhash64,omitempty"` // of the distances as little-endian uint16s
	DistanceBytes    int64  `json:"distance_bytes,omitempty"`    // compressed size of the distance blocks
	MaxDistance      int    `json:"max_distance,omitempty"`      // the longest distance in the layer, plies
	Rounds           int    `json:"rounds,omitempty"`            // propagation rounds (distance levels over all thresholds)
}

// store is an open tablebase directory.
type store struct {
	dir  string
	db   *badger.DB
	lock *dirLock
	enc  *zstd.Encoder
	dec  *zstd.Decoder
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

// openStore opens dir: writable (creating it, exclusive lock) for a build,
// else read-only (shared lock), failing with ErrNoTablebase when dir holds
// no database. A conflicting process gives ErrInUse at once, never a wait.
func openStore(dir string, writable bool) (*store, error) {
	if dir == "" {
		return nil, errors.New("no tablebase directory: give --tb, or set XDG_DATA_HOME or HOME")
	}
	if writable {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	} else if _, err := os.Stat(filepath.Join(dir, badger.ManifestFilename)); err != nil {
		return nil, fmt.Errorf("%w in %s (build one with `mancala build`)", ErrNoTablebase, dir)
	}
	lock, err := lockDir(dir, writable)
	if errors.Is(err, ErrInUse) {
		return nil, fmt.Errorf("tablebase %s is %w (a build holds it, or this is a build and something reads it)", dir, err)
	}
	if err != nil {
		return nil, err
	}
	db, err := openBadger(dir, writable, lock)
	if err != nil {
		lock.release()
		return nil, fmt.Errorf("tablebase %s: %w", dir, err)
	}
	s := &store{dir: dir, db: db, lock: lock}
	s.enc, _ = zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithEncoderLevel(zstd.SpeedBetterCompression))
	s.dec, _ = zstd.NewReader(nil)
	return s, nil
}

// openReading opens dir shared, for reading, with v's layer metadata.
func openReading(dir string, v *position.Variant) (*store, []LayerInfo, error) {
	s, err := openStore(dir, false)
	if err != nil {
		return nil, nil, err
	}
	infos, err := s.layers(v)
	if err != nil {
		s.close()
		return nil, nil, err
	}
	return s, infos, nil
}

// openBadger opens the database. A read-only open after a crashed build
// finds an untruncated write-ahead log, which only a writable open can
// replay: if our lock can be made exclusive (nobody else has it open), do
// that recovery once, then open read-only.
func openBadger(dir string, writable bool, lock *dirLock) (*badger.DB, error) {
	db, err := badger.Open(badgerOptions(dir, !writable))
	// Badger wraps ErrTruncateNeeded by message only, losing errors.Is.
	if writable || err == nil || !strings.Contains(err.Error(), badger.ErrTruncateNeeded.Error()) {
		return db, err
	}
	if err := lock.upgrade(); err != nil {
		return nil, fmt.Errorf("its last build was interrupted and it needs a recovery that another reader prevents: %w", err)
	}
	if rw, err := badger.Open(badgerOptions(dir, false)); err != nil {
		return nil, err
	} else if err := rw.Close(); err != nil {
		return nil, err
	}
	if err := lock.downgrade(); err != nil {
		return nil, err
	}
	return badger.Open(badgerOptions(dir, true))
}

// close closes the database and drops the lock.
func (s *store) close() error {
	s.enc.Close()
	s.dec.Close()
	err := s.db.Close()
	if lerr := s.lock.release(); err == nil {
		err = lerr
	}
	return err
}

// layers returns the metadata of v's stored layers, by seed count.
func (s *store) layers(v *position.Variant) ([]LayerInfo, error) {
	var infos []LayerInfo
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: variantPrefix(familyMeta, v)})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			var info LayerInfo
			if err := it.Item().Value(func(b []byte) error { return json.Unmarshal(b, &info) }); err != nil {
				return fmt.Errorf("layer metadata %x: %w", it.Item().Key(), err)
			}
			infos = append(infos, info)
		}
		return nil
	})
	sort.Slice(infos, func(i, j int) bool { return infos[i].Seeds < infos[j].Seeds })
	return infos, err
}

// complete returns the metadata of layers 0..N, the longest run with no
// gap: the layers a prober may serve and a build may resume after.
func complete(infos []LayerInfo) []LayerInfo {
	for i, info := range infos {
		if info.Seeds != i {
			return infos[:i]
		}
	}
	return infos
}

// encodeBlock compresses one block of values.
func (s *store) encodeBlock(values []int8) []byte {
	return s.enc.EncodeAll(int8Bytes(values), make([]byte, 0, len(values)/4))
}

// putLayer stores a finished layer: its blocks (given already encoded, in
// order), synced, then its metadata, synced. Until the metadata lands the
// layer does not exist for any reader, so a crash anywhere leaves at worst
// orphan blocks that the next build of the layer overwrites.
func (s *store) putLayer(v *position.Variant, info LayerInfo, blocks [][]byte) error {
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	for b, data := range blocks {
		if err := wb.Set(blockKey(v, info.Seeds, b), data); err != nil {
			return err
		}
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	if err := s.db.Sync(); err != nil {
		return err
	}
	if beforeMeta != nil {
		if err := beforeMeta(info.Seeds); err != nil {
			return err
		}
	}
	meta, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(metaKey(v, info.Seeds), meta) }); err != nil {
		return err
	}
	return s.db.Sync()
}

// beforeMeta, when set (by tests), runs between a layer's blocks and its
// metadata; an error aborts the write there, as a crash would.
var beforeMeta func(seeds int) error

// getBlock reads and decodes block b of layer n into dst, whose length is
// the block's number of values.
func (s *store) getBlock(v *position.Variant, n, b int, dst []int8) error {
	return s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(blockKey(v, n, b))
		if err != nil {
			return fmt.Errorf("layer %d block %d: %w", n, b, err)
		}
		return item.Value(func(data []byte) error { return s.decodeBlock(n, b, data, dst) })
	})
}

// decodeBlock decompresses one stored block into dst, checking its size.
func (s *store) decodeBlock(n, b int, data []byte, dst []int8) error {
	out, err := s.dec.DecodeAll(data, int8Bytes(dst)[:0])
	if err != nil {
		return fmt.Errorf("layer %d block %d: %w", n, b, err)
	}
	if len(out) != len(dst) {
		return fmt.Errorf("layer %d block %d: %d values, want %d", n, b, len(out), len(dst))
	}
	if &out[0] != &int8Bytes(dst)[0] {
		copy(int8Bytes(dst), out)
	}
	return nil
}

// loadLayer reads a whole layer and checks it against its metadata's
// checksum.
func (s *store) loadLayer(v *position.Variant, info LayerInfo) ([]int8, error) {
	values := make([]int8, info.Positions)
	hugePages(values)
	err := s.db.View(func(txn *badger.Txn) error {
		for b := 0; b < info.Blocks; b++ {
			item, err := txn.Get(blockKey(v, info.Seeds, b))
			if err != nil {
				return fmt.Errorf("layer %d block %d: %w", info.Seeds, b, err)
			}
			dst := values[b*BlockSize : min(int64((b+1)*BlockSize), info.Positions)]
			if err := item.Value(func(data []byte) error { return s.decodeBlock(info.Seeds, b, data, dst) }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if sum := xxhash.Sum64(int8Bytes(values)); sum != info.Checksum {
		return values, &ChecksumError{Seeds: info.Seeds, Got: sum, Want: info.Checksum}
	}
	return values, nil
}

// ChecksumError reports a layer whose values do not match the checksum
// recorded when it was built.
type ChecksumError struct {
	Seeds     int
	Got, Want uint64
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("layer %d: checksum %016x, stored %016x: the layer is corrupt", e.Seeds, e.Got, e.Want)
}

// DefaultDir returns the default tablebase directory:
// $XDG_DATA_HOME/mancala, else ~/.local/share/mancala (the user data
// directory), or "" when neither XDG_DATA_HOME (absolute) nor a home
// directory is known.
func DefaultDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "mancala")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "mancala")
}

// DiskBytes returns the bytes that the files under dir occupy on disk
// (allocated blocks where the system reports them, else file sizes).
func DiskBytes(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += allocated(info)
		return nil
	})
	return total, err
}
