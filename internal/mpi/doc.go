// Package mpi is the build's transport across processes over MPI (Open
// MPI's C library through cgo), compiled only with the build tag "mpi":
// go build -tags mpi. Without the tag (the default, pure-Go build) Join
// reports that no MPI job is running, and nothing here links MPI.
//
// Under mpirun or srun --mpi=pmix each process calls Join once, at start:
// it initialises MPI (MPI_Init_thread, serialized calls) and returns the
// process's rank among the job's, which implements tablebase.Cluster:
// Exchange is an MPI_Alltoall of the counts and an MPI_Alltoallv of the
// batches, AllToAll the same for bytes (the captures' lookups and their
// answers), Sum an MPI_Allreduce, all on MPI_COMM_WORLD. Messages of any
// size go in pieces under MPI's 32-bit counts (split.go);
// MANCALA_MPI_MAX_BYTES, a test's knob, lowers that bound so that small
// builds go in pieces too. Finalize ends
// it; Abort ends the whole job with an exit code (a failed rank must not
// leave the others waiting in a collective).
package mpi
