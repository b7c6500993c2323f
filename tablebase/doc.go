// Package tablebase builds, stores and probes endgame databases: the exact
// value (rules.md section 6) of every position with at most N seeds on the
// board, for any variant, and beside it a distance: the plies to the
// capture or game end that realises the value (DTZ). docs/tablebase-design.md
// explains the design: layers, the retrograde methods, distances, memory,
// storage, damage and concurrency.
//
// # Files
//
// The files are dealt out by job, one prefix a
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
//     the prober and for a build's lower layers; store_mapped.go a
//     layer's values as a plain file that Load maps instead of decoding
//     (WriteMapped writes it; store_mapped_linux.go the mapping).
//   - build_*.go, build.go: the retrograde build, layer by layer.
//     build_progress.go counts a layer's work; build_lower.go gives the
//     lower layers' values, in memory (packed for kalah's forward pass)
//     or from the store;
//     build_layer.go is the layer solver and its first pass (exits, move
//     counts, in-degrees); build_iterate.go value iteration;
//     build_graph.go the predecessor graph, in memory or in a mapped file
//     (build_spill_linux.go); build_unsow.go the un-sowing predecessors
//     of awari and oware; build_propagate.go the threshold propagation;
//     build_encode.go a solved layer's blocks; build_forward.go kalah's
//     forward pass; build_partition.go a layer built in parts, each part
//     a goroutine rank owning a range and exchanging batched updates
//     through a per-part Exchange (the seam of a build across machines,
//     docs/distributed-build.md); build_cluster.go the build across
//     processes (BuildOptions.Cluster: one part a process, holding its
//     range of every layer and storing it in parts; the MPI transport is
//     internal/mpi); build_lookup.go the captures' values of such a
//     build, asked of the ranks that own them (two all-to-alls a lookup
//     round); parts.go a tablebase in parts, the files such a build
//     writes (a part file a rank a layer, the layer's metadata last),
//     parts_build.go a rank's storing of its part and the checksums
//     chained over the ranks, parts_import.go Import, which puts the
//     parts into the store; build_plan.go the
//     memory budget, the
//     plan's figures and the ETA; build_method.go the methods behind one
//     interface (layerMethod) and the one decision of a layer's method
//     and memory (chooseMethod, a pure planner over the layer's shape);
//     build.go Build and the builder, which runs each layer's plan and
//     stores the layer; build_memory.go
//     BuildMemory, the same layers held in memory.
//   - probe.go: Prober, the solver.Tablebase the search probes;
//     probe_load.go Prober.Load, lower layers' values read into memory.
//   - verify.go, stats.go: Verify and Stats re-read a stored tablebase;
//     prefetch_amd64.s the prefetches of verify's batched reads.
//
// cmd/build.go, query.go, verify.go and stats.go are thin commands over
// this package, which prints nothing (progress goes through a callback).
//
// # Contracts
//
//   - Values are from the side to move of the board as indexed; layer n
//     holds every board with n seeds, in the rank order of Index, and is
//     built after layers 0..n-1. Play that never leaves a layer is worth 0.
//   - A position's distance d: 0 for a value of 0 or no moves; otherwise
//     a move that keeps the value leads to distance d-1 (or is the
//     capture, at d = 1), the winner taking the shortest way and the loser
//     the longest. Capped at 32767.
//   - Every method (un-sowing, the graph, the spilled graph, value
//     iteration, kalah's forward pass) gives the same values and
//     distances, so a layer's checksums (xxHash64 of values and of
//     distances, in rank order) depend only on the game.
//   - A layer exists only once complete: it is written in a staging
//     directory, recorded in layer.json (sizes and hashes of its files)
//     and renamed into place, and never opened for writing again. A build
//     killed at any point resumes from its last complete layer.
//   - Readers take no lock and see the layers complete when they opened;
//     a build holds its variant's lock, and a second build of the variant
//     fails with an error wrapping ErrInUse. A directory with no tablebase
//     gives an error wrapping ErrNoTablebase.
//   - Damage (a file's size or hash, layer.json's fields, a missing or
//     unreadable layer) is a *DamageError naming the layer and the repair
//     command, never a layer that looks unbuilt. Repair drops the first
//     damaged layer and those above it, of that variant and rules version
//     only, and refuses before deleting anything it could not delete.
//   - A full disk, before or during a layer's write, is one error wrapping
//     syscall.ENOSPC, and the stored layers are untouched.
//   - Every entry point takes a variant's storage through VariantOf (the
//     kalah sizes of one row length share one tablebase).
package tablebase
