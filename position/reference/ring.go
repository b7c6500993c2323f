package reference

// ring is the board laid out as the sowing circuit (rules.md section 0): index 0..n-1 is player 1's
// pits 1..n, index n..2n-1 is player 2's pits 1..n, and sowing goes from each index to the next,
// from the last back to 0.
type ring []int

// toRing returns a fresh ring holding s's board.
func toRing(s State) ring {
	b := make(ring, 0, 2*len(s.Rows[0]))
	b = append(b, s.Rows[0]...)
	return append(b, s.Rows[1]...)
}

// rows returns the board as fresh rows, player 1's first.
func (b ring) rows() [2][]int {
	n := b.n()
	return [2][]int{append([]int(nil), b[:n]...), append([]int(nil), b[n:]...)}
}

// n returns the number of pits per row.
func (b ring) n() int {
	return len(b) / 2
}

// next returns the index one step forward (the sowing direction) from i.
func (b ring) next(i int) int {
	return (i + 1) % len(b)
}

// prev returns the index one step backward from i.
func (b ring) prev(i int) int {
	return (i + len(b) - 1) % len(b)
}

// pit1 returns the index of player's pit 1.
func (b ring) pit1(player int) int {
	return (player - 1) * b.n()
}

// owner returns the player (1 or 2) whose row holds index i.
func (b ring) owner(i int) int {
	return i/b.n() + 1
}

// seedsOf returns the seeds in player's row.
func (b ring) seedsOf(player int) int {
	start := b.pit1(player)
	return sum(b[start : start+b.n()])
}

// take empties the pits at the given indexes and returns the seeds they held.
func (b ring) take(pits []int) int {
	taken := 0
	for _, i := range pits {
		taken += b[i]
		b[i] = 0
	}
	return taken
}
