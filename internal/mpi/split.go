package mpi

import "unsafe"

// Messages past MPI's 32-bit counts. MPI_Alltoallv takes its counts and
// displacements as C ints, so a rank's bytes to all others together must
// stay under 2^31 a call, while a round of a large layer, or a range of
// it sent whole, can pass that. allToAllv sends any sizes (64-bit) in
// pieces: first the 64-bit sizes (MPI_Alltoall of one int64 a rank), then
// as many MPI_Alltoallv calls as the largest message in the job needs, each
// carrying at most limit/P bytes of every message, so that a call's
// counts and displacements stay under limit. A message that fits takes
// one call and no copy on receipt, as before. This file has no build tag:
// its test runs the pieces over an in-process transport in the default,
// pure-Go test.

// maxCount is the most an MPI count or displacement (a C int) holds.
const maxCount = 1<<31 - 1

// rawCalls are the MPI collectives allToAllv is made of.
type rawCalls interface {
	// sizes is an MPI_Alltoall of one int64 a rank: it returns what
	// every rank put at this rank's index.
	sizes(send []int64) []int64
	// most is an MPI_Allreduce of x with MPI_MAX.
	most(x int64) int64
	// alltoallv is MPI_Alltoallv of bytes, with C-int counts and
	// displacements.
	alltoallv(send []byte, sendc, sdispl []int32, recv []byte, recvc, rdispl []int32)
}

// allToAllv sends, to every rank to, the sendc[to] bytes of send that
// start at the sum of sendc[:to], in calls whose counts and displacements
// stay under limit (maxCount under MPI), and returns what every rank sent
// this one: recv, holding recvc[from] bytes from each rank in rank order.
func allToAllv(r rawCalls, send []byte, sendc []int64, limit int64) (recv []byte, recvc []int64) {
	ranks := len(sendc)
	recvc = r.sizes(sendc)
	soff, roff := offsets(sendc), offsets(recvc)
	recv = alignedBytes(roff[ranks])
	per := max(1, limit/int64(ranks)) // bytes of a message a call
	pieces := max(1, (r.most(maxOf(sendc))+per-1)/per)
	sc, sd, rc, rd := make([]int32, ranks), make([]int32, ranks), make([]int32, ranks), make([]int32, ranks)
	for k := range pieces {
		// Piece k of every message: bytes [k*per, (k+1)*per) of it.
		piece := func(c []int64, counts, displs []int32) int64 {
			at := int64(0)
			for t := range c {
				n := min(max(c[t]-k*per, 0), per)
				counts[t], displs[t] = int32(n), int32(at)
				at += n
			}
			return at
		}
		sendAt, recvAt := piece(sendc, sc, sd), piece(recvc, rc, rd)
		if pieces == 1 { // every message fits one call: no copies
			r.alltoallv(send, sc, sd, recv, rc, rd)
			break
		}
		stage := make([]byte, sendAt)
		for t := range sendc {
			if sc[t] > 0 {
				copy(stage[sd[t]:int64(sd[t])+int64(sc[t])], send[soff[t]+k*per:])
			}
		}
		got := make([]byte, recvAt)
		r.alltoallv(stage, sc, sd, got, rc, rd)
		for t := range recvc {
			if rc[t] > 0 {
				copy(recv[roff[t]+k*per:], got[rd[t]:int64(rd[t])+int64(rc[t])])
			}
		}
	}
	return recv, recvc
}

// alignedBytes returns n bytes starting at an 8-byte boundary, so that
// uint32 messages can be read in place.
func alignedBytes(n int64) []byte {
	words := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n)
}

// offsets returns the running sums of c: offsets[t] is where message t
// starts, offsets[len(c)] the total.
func offsets(c []int64) []int64 {
	off := make([]int64, len(c)+1)
	for t, n := range c {
		off[t+1] = off[t] + n
	}
	return off
}

func maxOf(c []int64) int64 {
	m := int64(0)
	for _, n := range c {
		m = max(m, n)
	}
	return m
}
