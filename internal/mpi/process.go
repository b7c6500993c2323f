package mpi

import "github.com/mancala-solver/mancala/tablebase"

// Process is this process's place in an MPI job: a tablebase.Cluster,
// and the job's end.
type Process interface {
	tablebase.Cluster
	// Finalize ends MPI in this process (MPI_Finalize); call it once,
	// after the last collective, on every rank.
	Finalize()
	// Abort ends every process of the job (MPI_Abort) with code as the
	// exit status; it does not return.
	Abort(code int)
	// Traffic returns the bytes this rank has sent other ranks in
	// Exchange (batches and their counts), and the rounds.
	Traffic() (bytes, rounds int64)
}
