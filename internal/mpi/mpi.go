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
static MPI_Op maxOp(void) { return MPI_MAX; }
*/
import "C"

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
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
	limit := int64(maxCount)
	if v, err := strconv.ParseInt(os.Getenv("MANCALA_MPI_MAX_BYTES"), 10, 64); err == nil && v > 0 {
		limit = min(v, limit)
	}
	return &proc{rank: int(rank), size: int(size), limit: limit}, nil
}

// proc is a rank of the job. Its calls are collectives on
// MPI_COMM_WORLD; an MPI error aborts the job (MPI's default handler).
type proc struct {
	rank, size int
	// limit bounds an MPI_Alltoallv call's counts (allToAllv): MPI's
	// 2^31, or MANCALA_MPI_MAX_BYTES, a test's small figure that makes
	// every large message go in pieces.
	limit                int64
	rounds               int64
	exchanged, allToAlls int64 // bytes sent other ranks by Exchange, by AllToAll
}

func (p *proc) Rank() int { return p.rank }
func (p *proc) Size() int { return p.size }

func (p *proc) Finalize() { C.MPI_Finalize() }

func (p *proc) Abort(code int) {
	C.MPI_Abort(C.world(), C.int(code))
	os.Exit(code)
}

func (p *proc) Traffic() Traffic {
	return Traffic{Exchanged: p.exchanged, Rounds: p.rounds, AllToAll: p.allToAlls}
}

// Exchange sends out[to] to every rank to: one message a destination,
// the count of Win, then Win, then Lose, as uint32s (allToAllv: an
// MPI_Alltoall of the sizes, then MPI_Alltoallv calls).
func (p *proc) Exchange(ctx context.Context, _ int, out []tablebase.Batch) ([]tablebase.Batch, error) {
	total := 0
	for _, b := range out {
		total += 1 + len(b.Win) + len(b.Lose)
	}
	send := make([]uint32, 0, total)
	sendc := make([]int64, p.size)
	for to, b := range out {
		send = append(send, uint32(len(b.Win)))
		send = append(send, b.Win...)
		send = append(send, b.Lose...)
		sendc[to] = 4 * int64(1+len(b.Win)+len(b.Lose))
	}
	p.exchanged += sent(sendc, p.rank)
	p.rounds++
	recv, recvc := allToAllv(p, wordBytes(send), sendc, p.limit)
	words := bytesWords(recv)
	res := make([]tablebase.Batch, p.size)
	at := int64(0)
	for from := range res {
		m := words[at : at+recvc[from]/4]
		at += recvc[from] / 4
		if len(m) == 0 || int(m[0]) > len(m)-1 {
			return nil, fmt.Errorf("a malformed batch from rank %d", from)
		}
		nw := int(m[0])
		res[from] = tablebase.Batch{Win: m[1 : 1+nw], Lose: m[1+nw:]}
	}
	return res, ctx.Err()
}

// AllToAll sends out[to] to every rank to (allToAllv).
func (p *proc) AllToAll(ctx context.Context, out [][]byte) ([][]byte, error) {
	total := 0
	for _, b := range out {
		total += len(b)
	}
	send := make([]byte, 0, total)
	sendc := make([]int64, p.size)
	for to, b := range out {
		send, sendc[to] = append(send, b...), int64(len(b))
	}
	p.allToAlls += sent(sendc, p.rank)
	recv, recvc := allToAllv(p, send, sendc, p.limit)
	res := make([][]byte, p.size)
	at := int64(0)
	for from := range res {
		res[from] = recv[at : at+recvc[from] : at+recvc[from]]
		at += recvc[from]
	}
	return res, ctx.Err()
}

// sent is the bytes of sendc to ranks other than rank.
func sent(sendc []int64, rank int) int64 {
	total := int64(0)
	for to, c := range sendc {
		if to != rank {
			total += c
		}
	}
	return total
}

// Sum is an MPI_Allreduce of x.
func (p *proc) Sum(ctx context.Context, _ int, x int64) (int64, error) {
	var total int64
	C.MPI_Allreduce(unsafe.Pointer(&x), unsafe.Pointer(&total), 1, C.i64(), C.sum(), C.world())
	return total, ctx.Err()
}

// sizes, most and alltoallv are the rawCalls of allToAllv.

func (p *proc) sizes(send []int64) []int64 {
	recv := make([]int64, p.size)
	C.MPI_Alltoall(unsafe.Pointer(&send[0]), 1, C.i64(), unsafe.Pointer(&recv[0]), 1, C.i64(), C.world())
	return recv
}

func (p *proc) most(x int64) int64 {
	var m int64
	C.MPI_Allreduce(unsafe.Pointer(&x), unsafe.Pointer(&m), 1, C.i64(), C.maxOp(), C.world())
	return m
}

func (p *proc) alltoallv(send []byte, sendc, sdispl []int32, recv []byte, recvc, rdispl []int32) {
	C.MPI_Alltoallv(bufPtr(send), cints(sendc), cints(sdispl), C.u8(),
		bufPtr(recv), cints(recvc), cints(rdispl), C.u8(), C.world())
}

// cints is an int32 slice as MPI's C int array (the same type on every
// platform Open MPI supports).
func cints(c []int32) *C.int { return (*C.int)(unsafe.Pointer(unsafe.SliceData(c))) }

// bufPtr is a buffer's address, or a byte's for an empty one (whose
// counts are all 0).
func bufPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return unsafe.Pointer(&empty)
	}
	return unsafe.Pointer(&b[0])
}

var empty byte

// wordBytes and bytesWords view uint32s as bytes and back (allToAllv's
// buffers are 8-byte aligned).
func wordBytes(w []uint32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 4*len(w))
}

func bytesWords(b []byte) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
}
