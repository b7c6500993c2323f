// Package tablebase builds, stores and probes endgame databases: the exact
// value (rules.md section 6) of every position with at most N seeds on the
// board, for any variant. Its files are dealt out by job, one prefix a
// job, and each file uses only files listed before it here (index <- store
// <- build <- verify; store <- probe, stats). A file ending _other.go is
// its _linux.go or _unix.go twin for the other systems:
//
//   - index.go: a perfect rank of the boards of one seed count (the
//     combinatorial number system; the formula and its source are on
//     Index), and a cursor that walks a layer in rank order without
//     unranking.
//   - store_*.go, store.go: the stored tablebase. store_codec.go is what a
//     layer is as bytes (keys, zstd blocks of values and of distances,
//     checksums, Format); store_layout.go the directory (marker,
//     variant directories, layer.json's LayerInfo and file list, the
//     damage checks on them, DamageError, the error values);
//     store_variant.go the variant whose directory holds a variant's
//     layers (VariantOf, and what a directory holds); store_lock_unix.go
//     the build lock and the file system's figures (allocated and free
//     bytes, whether a directory may be emptied); store_badger.go
//     Badger's settings and the child process that writes a layer's
//     database (store_badger_linux.go: it dies with the build); store.go
//     the store type, one variant's open layers: opening, locking,
//     writing a layer, reading blocks, free space, repair (see Storage
//     and Damage); store_cache.go the one cache of decoded blocks, for
//     the prober and for a build's lower layers.
//   - build_*.go, build.go: the retrograde build, layer by layer.
//     build_progress.go counts a layer's work; build_lower.go gives the
//     lower layers' values, in memory or from the store;
//     build_layer.go is the layer solver and its first pass (exits, move
//     counts, in-degrees); build_iterate.go value iteration;
//     build_graph.go the predecessor graph, in memory or in a mapped file
//     (build_spill_linux.go); build_unsow.go the un-sowing predecessors
//     of awari and oware; build_propagate.go the threshold propagation;
//     build_encode.go a solved layer's blocks; build_forward.go kalah's
//     forward pass; build_partition.go propagation over rank ranges that
//     exchange batched updates (the seam of a build across machines,
//     docs/distributed-build.md); build_plan.go the memory plan, the
//     budget and the ETA; build.go Build and the builder, which decides
//     each layer's method and memory and stores it; build_memory.go
//     BuildMemory, the same layers held in memory.
//   - probe.go: Prober, the solver.Tablebase the search probes.
//   - verify.go, stats.go: Verify and Stats re-read a stored tablebase.
//
// cmd/build.go, query.go, verify.go and stats.go are thin commands over
// this package, which prints nothing (progress goes through a callback).
//
// # Values and layers
//
// A position's value is from the side to move, so a board is indexed as
// the mover sees it and Side is ignored. A capture lowers the seeds on the
// board and nothing raises them, so the positions with n seeds (layer n)
// depend only on layer n and lower layers: layers are built in order
// n = 0, 1, ..., N, as Romein and Bal did for awari ("Solving Awari with
// Parallel Retrograde Analysis", IEEE Computer 36(10), 2003). Inside a
// layer, a move either leaves it (a capture, worth the seeds taken minus
// the child's final value) or stays in it (no capture, or a pass); with
// the game end these give each position an "exit" value, and play that
// stays in the layer forever is worth 0.
//
// # Method: thresholds over a predecessor graph
//
// Moves that stay in the layer can cycle, so plain backward induction does
// not apply, and optimistic value iteration converges to wrong values on
// cycles (a pair of positions that only move to each other is a fixed
// point at any +x/-x). The build computes the value from its definition
// as a game in which infinite play is worth 0: value >= k > 0 exactly when
// the mover can force, in finitely many moves, an exit worth at least k;
// value <= -k exactly when the opponent can force one worth at most -k;
// anything else is 0. Each such set is an attractor, computed by the
// classic retrograde scheme (Romein & Bal; Lapin0t/awari's driver): a
// counter per position of the moves not yet known to lose, decremented as
// successors resolve, resolutions propagated to predecessors. Thresholds are taken from k = n down to 1 and the sets
// only grow as k falls, so one counter array serves them all and every
// move is propagated once: the whole layer costs two passes of move
// generation plus one pass over the graph. A position resolved at
// threshold k gets value k or -k; what is never resolved is 0.
//
// A move after which the same player moves again (kalah's extra move: the
// child's side to move is m.Next.Side, equal to the parent's) is worth
// m.Value(p, child) (position/value.go), the child's own value, and in
// propagation it hands the predecessor its child's result as its own: a
// child won at k wins it at once, a child lost at k is one more move known
// to lose. Kalah has such moves (a last seed sown into the mover's
// store). Its layers are built by default by the forward pass
// (build_forward.go: no kalah position recurs, so children can be solved
// before parents), and by this propagation over the graph when the graph
// method is forced; the two agree layer by layer (TestForwardMatchesGraph).
//
// # Distance
//
// Values alone do not make progress: following moves that keep a won
// value can circle forever. So every position also gets a distance, as
// chess tablebases have DTZ: the plies to the exit (a capture, or the game
// end) that realises its value, counting that capture as one ply and the
// game end as none, when the winner takes the shortest way there and the
// loser the longest. Precisely, with v the value of p and the moves that
// keep it those worth exactly v (m.Value(p, child) = v):
//
//	d(p) = 0                                        if v = 0 or p has no moves
//	d(p) = min over p's value-keeping moves of c(m) if v > 0 (the winner)
//	d(p) = max over p's value-keeping moves of c(m) if v < 0 (the loser)
//	c(m) = 1 for a capture; 1 + d(child) for a move inside the layer
//
// So from any position of value v != 0 the side to move has a move that
// keeps v and lowers the distance by one (or is the capture, at distance
// 1), and playing such moves reaches, in exactly d plies, an exit that
// realises v. A value of 0 has distance 0 by convention: it may be held by
// play that never ends, and there is no exit to reach. The build computes
// d in the same pass as the value: within threshold k the attractor grows
// level by level, level d holding the positions resolved at distance d, so
// a winner is resolved by its first (shortest) winning move and a loser by
// its last (longest) losing one. Distances are capped at 32767 (15 bits of
// the propagation state); awari's and oware's lines stay far below (the
// longest of awari to 13 seeds is 104 plies).
//
// Romein and Bal generate predecessors with un-moves. For awari and oware
// this package does too (build_unsow.go, with position.Variant.AppendUnsown:
// a move inside a layer captures nothing, so its un-move subtracts the
// lap table's entry of the sowing from the rows and puts the seeds back
// in the origin; the capture and feeding rules then decide, as forward,
// whether that move is quiet and legal), and
// a layer then needs about 5 bytes a position while it propagates (exit,
// the terminal bits and the 4-byte propagation state: count, value,
// distance, written by the first pass directly) and about 6 while it is
// compressed block by block from the state (the state, the values kept
// for the layers above, the compressed blocks). Un-moves are hard to get right for relay sowing (djenon) and
// akon's laps, so for those a first forward pass counts each position's
// predecessors, a second writes them into a compressed reversed graph
// (4 bytes a move), and propagation walks it. For awari's layer 20 that is
// 276 million moves, 1.1 GB, plus 4 bytes a position of offsets and
// propagation state (the build peaks at 3.7 GB of RSS). When the graph
// does not fit the memory budget (BuildOptions.MemBytes), the build
// spills it (build_graph.go, Linux only): the moves (graph.from), and if that
// is not enough the offsets (graph.start) too, go to a temporary file in
// the variant's directory, allocated on disk (fallocate, so a full disk
// is an error wrapping syscall.ENOSPC and not a SIGBUS) and memory-mapped
// shared; the kernel pages it in and out, the plan counts it as disk, not
// memory (LayerPlan.DiskBytes), and the layer's method is
// "graph-spilled". The file is unlinked as soon as it is mapped, so the
// mapping's release after the layer (or on its error or cancellation)
// removes it, and even a killed build leaves nothing behind. Its values
// and distances are those of the graph in memory; how fast it is depends
// on how much of the file the page cache holds. When not even the
// spilled graph fits (the per-part counters of the first pass, 2 bytes a
// position a thread, stay in memory), or on other systems, the build
// falls back to value iteration from 0 (repeated forward sweeps until
// nothing changes), which needs only the values: sweep t computes the
// game cut after t moves with cut play worth 0, which equals the true
// value once t passes the longest forced sequence to an exit, so the
// first sweep that changes nothing is exact. It is much slower (one sweep
// per move of the longest forced sequence: 28 times slower on awari's
// layer 11) but works for every variant too.
// The tests check both methods against each other and against
// independent references.
//
// # Storage
//
// A layer's values are int8 in rank order, cut into blocks of BlockSize
// (65536), each a zstd frame with its own checksum, one Badger key a
// block; its distances are uint16 in blocks of the same ranks under their
// own keys (the key layout is in store_codec.go). Each layer is its
// own Badger database, in its own directory (store_layout.go):
//
//	DIR/mancala-tablebase.json        marks DIR as a tablebase, with the format
//	DIR/awari.r1/layer-07/            awari's layer 7 under rules version 1
//	DIR/awari.r1/layer-07/layer.json  its LayerInfo (positions, block size and
//	                                  count, xxHash64 of the values, build
//	                                  time, format) and the size and xxHash64
//	                                  of every file of its database
//	DIR/awari.r1/staging-08/          the layer being written
//	DIR/awari.r1/build.lock           held (flock) by awari's build
//
// A build writes layer n into staging-n, closes that database cleanly,
// records its files in layer.json, syncs them all, and renames staging-n
// to layer-n. The database itself is written by a child process, this
// program run again (store_badger.go): Badger writes through shared
// memory maps from its own goroutines, so a disk that fills under them
// is a SIGBUS that no goroutine of the build could recover, and in a
// child it ends only the child, which the build reports as a full disk.
// Layer n is written while layer n+1 is solved (the writer and the disk's
// syncs would otherwise leave the build's threads idle), and layer n+1 is
// written only after n is complete. A complete layer is thus a cleanly closed database that is
// never opened for writing again, and a layer exists only once complete:
// a build killed at any point (kill -9, power) resumes from its last
// complete layer, deleting the staging directory it left. Rules versions
// are separate directories, so layers built under other rules are simply
// absent. The kalah sizes of one row length share one directory, that of
// the four-seed size (DIR/kalah.r2 for six pits): every entry point takes
// the variant through VariantOf (store_variant.go), since a kalah
// position's value does not depend on the seeds the game started with.
// Files get the permissions of the umask (Badger makes some owner-only;
// the build widens them to the umask's), and a build refuses a non-empty
// directory that is not a tablebase.
//
// # Damage
//
// Every reader checks each layer's metadata when it opens the tablebase:
// the fields against what layer n of the variant must be (positions,
// block size and count, checksum present, variant, rules, format), every
// recorded file present at its recorded size (which catches truncation at
// any length), and no layer missing below a stored one; every entry
// named layer-NN is a stored layer, so one that is not a readable
// directory (a dangling symlink, a directory of mode 000) is damage too. Before Badger
// opens a layer, its files are re-hashed against layer.json, so Badger
// never parses a damaged file (its parsers panic on some, in goroutines
// a caller cannot recover); a panic inside Badger on the caller's
// goroutine is recovered all the same. A mismatch is a *DamageError,
// "tablebase DIR is damaged (awari layer 8: detail); rebuild the damaged
// layers with `mancala build awari --max-seeds N --tb DIR --repair`":
// damaged layers never look like layers not built. Build's Repair option
// drops the first damaged layer and every layer above it (highest first,
// so a crash part-way leaves no gap) of that variant and rules version
// only, and builds them again; every other variant is untouched. Before
// it deletes anything it checks that it can delete every one of those
// layers (a symlink is removed, never followed; a directory must be one
// it can list and empty), and otherwise refuses in one line naming the
// layer to fix, so a repair never leaves fewer layers than it found. A
// Prober meets file damage lazily, when a probe first needs the layer:
// the probe returns ok=false and Prober.Warnings lists the damage.
//
// Before writing a layer, the build checks the free space of the file
// system (statfs) against three times the layer's compressed size plus
// a margin; too little is an error wrapping syscall.ENOSPC, and nothing
// stored changes. A disk that fills after the check, while the layer is
// written (another process writing there), ends the writer process (a
// SIGBUS in a mapping, or ENOSPC): that too is one error wrapping
// syscall.ENOSPC, the staging directory is deleted and the stored layers
// are untouched. The spilled graph's file is allocated (fallocate, else
// written with zeros) before it is mapped, so it cannot fault either.
//
// # Concurrency
//
// Readers (probers, Verify, Stats) take no lock of ours: they open
// complete layers read-only, which Badger allows to any number of
// processes, on read-only media too, and which no build ever writes. So
// they run while a build adds layers above (a reader sees the layers that
// were complete when it opened), and after a crashed build, which left
// nothing to recover in any complete layer. A build holds its variant's
// build.lock exclusively: a second build of that variant fails at once
// with an error wrapping ErrInUse ("tablebase DIR is in use by another
// process"); builds of different variants may run side by side, also
// when they start at once into a directory that does not exist yet (each
// writes the marker through a temporary file of its own, and a directory
// holding only such temporaries still counts as empty).
package tablebase
