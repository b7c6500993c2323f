//go:build !mpi

package mpi

// Join returns nil and no error: this build does not link MPI (build
// with -tags mpi), so the process is never a rank of an MPI job.
func Join() (Process, error) { return nil, nil }

// Compiled reports whether this build links MPI.
const Compiled = false
