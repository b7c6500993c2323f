//go:build mpi

package mpi

/*
#cgo pkg-config: ompi-c
#include <mpi.h>
#include <stdint.h>

static MPI_Comm world(void) { return MPI_COMM_WORLD; }
static MPI_Datatype u32(void) { return MPI_UINT32_T; }
static MPI_Datatype i64(void) { return MPI_INT64_T; }
static MPI_Datatype i8(void) { return MPI_INT8_T; }
static MPI_Datatype u8(void) { return MPI_UINT8_T; }
static MPI_Datatype cint(void) { return MPI_INT; }
static MPI_Op sum(void) { return MPI_SUM; }
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"unsafe"

	"github.com/mancala-solver/mancala/tablebase"
)

// Compiled reports whether this build links MPI.
const Compiled = true

func init() {
	// MPI is initialised and called from one goroutine at a time; keep
	// the main goroutine on the thread that initialises it.
	runtime.LockOSThread()
}

// underMPI reports whether a launcher started this process as a rank:
// mpirun (Open MPI) or srun --mpi=pmix set these.
func underMPI() bool {
	for _, k := range []string{"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"} {
		if os.Getenv(k) != "" {
			return true
		}
	}
	return false
}

// Join initialises MPI when a launcher (mpirun, srun --mpi=pmix) started
// this process, and returns its rank; it returns nil, nil otherwise, so
// that an mpi build run alone builds on one machine as usual. It must be
// called from the main goroutine.
func Join() (Process, error) {
	if !underMPI() {
		return nil, nil
	}
	var provided C.int
	if rc := C.MPI_Init_thread(nil, nil, C.MPI_THREAD_SERIALIZED, &provided); rc != C.MPI_SUCCESS {
		return nil, fmt.Errorf("MPI_Init_thread: error %d", int(rc))
	}
	if provided < C.MPI_THREAD_SERIALIZED {
		C.MPI_Finalize()
		return nil, fmt.Errorf("MPI provides thread level %d, below MPI_THREAD_SERIALIZED", int(provided))
	}
	var rank, size C.int
	C.MPI_Comm_rank(C.world(), &rank)
	C.MPI_Comm_size(C.world(), &size)
	return &proc{rank: int(rank), size: int(size)}, nil
}

// proc is a rank of the job. Its calls are collectives on
// MPI_COMM_WORLD; an MPI error aborts the job (MPI's default handler).
type proc struct {
	rank, size     int
	bytes, rounds  int64
	sendc, recvc   []C.int
	sdispl, rdispl []C.int
}

func (p *proc) Rank() int { return p.rank }
func (p *proc) Size() int { return p.size }

func (p *proc) Finalize() { C.MPI_Finalize() }

func (p *proc) Abort(code int) {
	C.MPI_Abort(C.world(), C.int(code))
	os.Exit(code)
}

func (p *proc) Traffic() (int64, int64) { return p.bytes, p.rounds }

// counts returns n ints for MPI's count arrays, rounded up from a Go int
// that must fit.
func cnt(n int) (C.int, error) {
	if n > math.MaxInt32 {
		return 0, fmt.Errorf("an MPI message of %d values is over MPI's 2^31 count", n)
	}
	return C.int(n), nil
}

func (p *proc) arrays() {
	if p.sendc == nil {
		p.sendc, p.recvc = make([]C.int, p.size), make([]C.int, p.size)
		p.sdispl, p.rdispl = make([]C.int, p.size), make([]C.int, p.size)
	}
}

// Exchange sends out[to] to every rank to: one message a destination,
// the count of Win, then Win, then Lose; counts go first by an
// MPI_Alltoall, the batches by an MPI_Alltoallv.
func (p *proc) Exchange(ctx context.Context, _ int, out []tablebase.Batch) ([]tablebase.Batch, error) {
	p.arrays()
	total := 0
	for _, b := range out {
		total += 1 + len(b.Win) + len(b.Lose)
	}
	send := make([]uint32, 0, total)
	for to, b := range out {
		c, err := cnt(1 + len(b.Win) + len(b.Lose))
		if err != nil {
			return nil, err
		}
		p.sendc[to], p.sdispl[to] = c, C.int(len(send))
		send = append(send, uint32(len(b.Win)))
		send = append(send, b.Win...)
		send = append(send, b.Lose...)
		if to != p.rank {
			p.bytes += 4 * int64(c)
		}
	}
	p.rounds++
	C.MPI_Alltoall(unsafe.Pointer(&p.sendc[0]), 1, C.cint(), unsafe.Pointer(&p.recvc[0]), 1, C.cint(), C.world())
	in := 0
	for from, c := range p.recvc {
		p.rdispl[from] = C.int(in)
		in += int(c)
	}
	if _, err := cnt(in); err != nil {
		return nil, err
	}
	recv := make([]uint32, in)
	C.MPI_Alltoallv(unsafe.Pointer(&send[0]), &p.sendc[0], &p.sdispl[0], C.u32(),
		unsafe.Pointer(&recv[0]), &p.recvc[0], &p.rdispl[0], C.u32(), C.world())
	res := make([]tablebase.Batch, p.size)
	for from := range res {
		m := recv[p.rdispl[from] : p.rdispl[from]+p.recvc[from]]
		nw := int(m[0])
		res[from] = tablebase.Batch{Win: m[1 : 1+nw], Lose: m[1+nw:]}
	}
	return res, ctx.Err()
}

// Sum is an MPI_Allreduce of x.
func (p *proc) Sum(ctx context.Context, _ int, x int64) (int64, error) {
	var total int64
	C.MPI_Allreduce(unsafe.Pointer(&x), unsafe.Pointer(&total), 1, C.i64(), C.sum(), C.world())
	return total, ctx.Err()
}

// AllToAll sends out[to] to every rank to: the counts by an
// MPI_Alltoall, the bytes by an MPI_Alltoallv.
func (p *proc) AllToAll(ctx context.Context, out [][]byte) ([][]byte, error) {
	p.arrays()
	total := 0
	for _, b := range out {
		total += len(b)
	}
	send := make([]byte, 0, total+1)
	for to, b := range out {
		c, err := cnt(len(b))
		if err != nil {
			return nil, err
		}
		p.sendc[to], p.sdispl[to] = c, C.int(len(send))
		send = append(send, b...)
		if to != p.rank {
			p.bytes += int64(len(b))
		}
	}
	C.MPI_Alltoall(unsafe.Pointer(&p.sendc[0]), 1, C.cint(), unsafe.Pointer(&p.recvc[0]), 1, C.cint(), C.world())
	in := 0
	for from, c := range p.recvc {
		p.rdispl[from] = C.int(in)
		in += int(c)
	}
	if _, err := cnt(in); err != nil {
		return nil, err
	}
	recv := make([]byte, in+1)
	C.MPI_Alltoallv(unsafe.Pointer(&send[:1][0]), &p.sendc[0], &p.sdispl[0], C.u8(),
		unsafe.Pointer(&recv[0]), &p.recvc[0], &p.rdispl[0], C.u8(), C.world())
	res := make([][]byte, p.size)
	for from := range res {
		res[from] = recv[p.rdispl[from] : p.rdispl[from]+p.recvc[from]]
	}
	return res, ctx.Err()
}
