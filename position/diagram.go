package position

import (
	"fmt"
	"strings"
)

// Diagram draws the board as player 1 sees it: player 2's row on top,
// player 1's at the bottom, pit numbers outside, each row in its drawn
// left-to-right order. With counter-clockwise sowing player 1's pit 1 is
// bottom left and player 2's pit 1 top right; with clockwise sowing (akon)
// both are on the other side (rules.md section 0). A kalah board has a line
// for the stores between the rows, left blank (see DiagramStores). The
// result ends in a newline.
func Diagram(v *Variant, p Position) string {
	if v.HasStores() {
		return storeDiagram(v, p, "    ", "    ")
	}
	row1, row2 := p.Rows()
	top, bottom := drawOrder(v)
	var b strings.Builder
	fmt.Fprintf(&b, "         %s\n", numbers(top))
	fmt.Fprintf(&b, "player 2 %s\n", cells(row2, top))
	fmt.Fprintf(&b, "player 1 %s\n", cells(row1, bottom))
	fmt.Fprintf(&b, "         %s\n", numbers(bottom))
	return b.String()
}

// HasStores reports whether v's board has a store per player that the
// sowing passes through (kalah): the captures CAP1-CAP2 of a position are
// then the seeds in the stores, player 2's drawn on the left and player
// 1's on the right (DiagramStores). Other variants keep captured seeds
// off the board.
func (v *Variant) HasStores() bool { return v.Sow == SowStore }

// DiagramStores is Diagram with the stores of a variant that has them
// (kalah) drawn holding stores[0] (player 1's) and stores[1] (player 2's)
// seeds: player 2's store on the left, where player 2's sowing ends,
// player 1's on the right. For other variants it is Diagram.
func DiagramStores(v *Variant, p Position, stores [2]int) string {
	if !v.HasStores() {
		return Diagram(v, p)
	}
	return storeDiagram(v, p, fmt.Sprintf("[%2d]", stores[1]), fmt.Sprintf("[%2d]", stores[0]))
}

// storeDiagram draws a kalah board with the given store cells between the
// rows, player 2's on the left and player 1's on the right.
func storeDiagram(v *Variant, p Position, store2, store1 string) string {
	row1, row2 := p.Rows()
	top, bottom := drawOrder(v)
	pad := strings.Repeat(" ", 5*v.Pits)
	var b strings.Builder
	fmt.Fprintf(&b, "             %s\n", numbers(top))
	fmt.Fprintf(&b, "player 2     %s\n", cells(row2, top))
	fmt.Fprintf(&b, "stores  %s %s %s\n", store2, pad, store1)
	fmt.Fprintf(&b, "player 1     %s\n", cells(row1, bottom))
	fmt.Fprintf(&b, "             %s\n", numbers(bottom))
	return b.String()
}

// drawOrder returns the 0-based pits of player 2's and player 1's rows in
// the order they are drawn, left to right.
func drawOrder(v *Variant) (top, bottom []int) {
	n := v.Pits
	top, bottom = make([]int, n), make([]int, n)
	for i := 0; i < n; i++ {
		if v.Clockwise {
			top[i], bottom[i] = i, n-1-i
		} else {
			top[i], bottom[i] = n-1-i, i
		}
	}
	return top, bottom
}

func numbers(order []int) string {
	var b strings.Builder
	for _, i := range order {
		fmt.Fprintf(&b, " %2d  ", i+1)
	}
	return strings.TrimRight(b.String(), " ")
}

func cells(row uint64, order []int) string {
	var b strings.Builder
	for _, i := range order {
		fmt.Fprintf(&b, "[%3d]", Pit(row, i))
	}
	return b.String()
}
