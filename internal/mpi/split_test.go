package mpi

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// fakeJob is the collectives of ranks that are goroutines: each call
// leaves its arguments in the rank's slot, waits for every rank, reads
// the others' and waits again, as MPI's collectives behave. It checks
// every alltoallv call's counts and displacements against limit.
type fakeJob struct {
	t     *testing.T
	ranks int
	limit int64
	mu    sync.Mutex
	cond  *sync.Cond
	come  int
	gen   int
	slot  []any
	calls int // alltoallv calls of rank 0
}

type fakeRank struct {
	j    *fakeJob
	rank int
}

type vCall struct {
	send       []byte
	sendc, sdi []int32
}

func newFakeJob(t *testing.T, ranks int, limit int64) *fakeJob {
	j := &fakeJob{t: t, ranks: ranks, limit: limit, slot: make([]any, ranks)}
	j.cond = sync.NewCond(&j.mu)
	return j
}

// wait is a barrier of every rank.
func (j *fakeJob) wait() {
	j.mu.Lock()
	defer j.mu.Unlock()
	gen := j.gen
	if j.come++; j.come == j.ranks {
		j.come, j.gen = 0, j.gen+1
		j.cond.Broadcast()
		return
	}
	for gen == j.gen {
		j.cond.Wait()
	}
}

// round puts x in the rank's slot and returns every rank's.
func (r fakeRank) round(x any) []any {
	var all []any
	r.roundDo(x, func(slots []any) { all = append(all, slots...) })
	return all
}

// roundDo puts x in the rank's slot and calls read with every rank's
// before any rank leaves the call (a receive is complete when MPI's
// collective returns).
func (r fakeRank) roundDo(x any, read func([]any)) {
	r.j.slot[r.rank] = x
	r.j.wait()
	read(r.j.slot)
	r.j.wait()
}

func (r fakeRank) sizes(send []int64) []int64 {
	all := r.round(send)
	got := make([]int64, r.j.ranks)
	for t, a := range all {
		got[t] = a.([]int64)[r.rank]
	}
	return got
}

func (r fakeRank) most(x int64) int64 {
	m := int64(0)
	for _, a := range r.round(x) {
		m = max(m, a.(int64))
	}
	return m
}

func (r fakeRank) alltoallv(send []byte, sendc, sdispl []int32, recv []byte, recvc, rdispl []int32) {
	total := int64(0)
	for t := range sendc {
		total += int64(sendc[t])
		if int64(sdispl[t]) > r.j.limit || int64(rdispl[t]) > r.j.limit {
			r.j.t.Errorf("rank %d: a displacement over %d", r.rank, r.j.limit)
		}
	}
	if total > r.j.limit {
		r.j.t.Errorf("rank %d: %d bytes in one call, over %d", r.rank, total, r.j.limit)
	}
	if r.rank == 0 {
		r.j.calls++
	}
	r.roundDo(vCall{send, sendc, sdispl}, func(slots []any) {
		for t, a := range slots {
			c := a.(vCall)
			if c.sendc[r.rank] != recvc[t] {
				r.j.t.Errorf("rank %d: %d bytes from rank %d, expected %d", r.rank, c.sendc[r.rank], t, recvc[t])
				continue
			}
			copy(recv[rdispl[t]:rdispl[t]+recvc[t]], c.send[c.sdi[r.rank]:])
		}
	})
}

// TestAllToAllvPieces: messages of random sizes (some empty) between 3
// and 4 ranks arrive whole whether one call carries them or, under a
// small limit standing for MPI's 2^31, many pieces do (each call's
// counts within the limit); the calls are as many as the largest
// message needs.
func TestAllToAllvPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 2))
	for _, ranks := range []int{3, 4} {
		for _, limit := range []int64{maxCount, 24, 7} {
			t.Run(fmt.Sprintf("%d-ranks/limit-%d", ranks, limit), func(t *testing.T) {
				msg := make([][][]byte, ranks) // msg[from][to]
				biggest := 0
				for from := range msg {
					msg[from] = make([][]byte, ranks)
					for to := range msg[from] {
						n := rng.IntN(60)
						if rng.IntN(4) == 0 {
							n = 0
						}
						msg[from][to] = make([]byte, n)
						for i := range n {
							msg[from][to][i] = byte(rng.Uint32())
						}
						biggest = max(biggest, n)
					}
				}
				j := newFakeJob(t, ranks, limit)
				var wg sync.WaitGroup
				for r := range ranks {
					wg.Add(1)
					go func() {
						defer wg.Done()
						var send []byte
						sendc := make([]int64, ranks)
						for to, m := range msg[r] {
							send, sendc[to] = append(send, m...), int64(len(m))
						}
						recv, recvc := allToAllv(fakeRank{j, r}, send, sendc, limit)
						at := int64(0)
						for from := range ranks {
							if got := recv[at : at+recvc[from]]; !bytes.Equal(got, msg[from][r]) {
								t.Errorf("rank %d from %d: %v, sent %v", r, from, got, msg[from][r])
							}
							at += recvc[from]
						}
					}()
				}
				wg.Wait()
				per := max(1, limit/int64(ranks))
				if want := max(1, (int64(biggest)+per-1)/per); int64(j.calls) != want {
					t.Errorf("%d calls, want %d", j.calls, want)
				}
			})
		}
	}
}
