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
	// Traffic returns what this rank has sent other ranks.
	Traffic() Traffic
}

// Traffic is what a rank has sent other ranks: the bytes of the
// propagation's Exchange (batches and their counts) and its rounds, and
// the bytes of AllToAll (the captures' lookups and answers).
type Traffic struct {
	Exchanged, Rounds, AllToAll int64
}
