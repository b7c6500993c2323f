package tablebase

import (
	"encoding/binary"
	"errors"
	"sync/atomic"
	"unsafe"

	"github.com/mancala-solver/mancala/internal/hugepage"
)

// The propagation state comes in two widths. The wide word (uint32,
// build_propagate.go) holds any layer; the narrow one (uint16) halves the
// largest array of an un-sown layer (awari's layer 30: 5.9 GiB instead of
// 11.8), for a layer of at most maxNarrowSeeds seeds whose forced lines
// are at most maxNarrowDistance plies (awari's and oware's to 30 are at
// most 112 and 133 plies, docs/tablebases.md; a longer one makes the layer
// propagate again wide: errNarrowDistance, builder.solveUnsow):
//
//	unresolved: bits 0-7 the count (moves not yet known to lose), bit 15 clear
//	resolved:   bits 0-7 the distance, bits 8-14 the value (int7), bit 15 set
//
// Both are read and written through the generic helpers below, which the
// compiler instantiates once a width, so the width costs no test in the
// inner loops.
type stateWord interface{ uint16 | uint32 }

const (
	narrowResolved    = 1 << 15
	maxNarrowDistance = 1<<8 - 1
	maxNarrowSeeds    = 1<<6 - 1 // a value of -63..63 fits int7
)

// narrowDistanceLimit is maxNarrowDistance, a variable only for the tests
// of a layer that passes it.
var narrowDistanceLimit = maxNarrowDistance

var errNarrowDistance = errors.New("a forced line is longer than the narrow state's distance holds (255 plies)")

// nativeLittleEndian is whether the narrow state's compare-and-swap, on
// the 32-bit word that holds it, finds the lower-addressed half in the low
// bits (every platform Go builds this for but a few big-endian ones).
var nativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// narrow reports whether W is the narrow word.
func narrow[W stateWord]() bool {
	var w W
	return unsafe.Sizeof(w) == 2
}

// narrowStateFits reports whether a layer of n seeds can be solved with
// the narrow state (its values fit; its distances are known only once
// solved).
func narrowStateFits(n int) bool { return n <= maxNarrowSeeds && nativeLittleEndian }

func narrowValue(st uint16) int8 {
	if st&narrowResolved == 0 {
		return 0 // unresolved: infinite play
	}
	return int8(uint8(st>>8)<<1) >> 1
}

func narrowDistance(st uint16) uint16 {
	if st&narrowResolved == 0 {
		return 0
	}
	return st & 0xff
}

// wordResolved reports whether st is resolved.
func wordResolved[W stateWord](st W) bool {
	if narrow[W]() {
		return uint16(st)&narrowResolved != 0
	}
	return uint32(st)&resolved != 0
}

// wordValue is st's value: 0 while unresolved.
func wordValue[W stateWord](st W) int8 {
	if narrow[W]() {
		return narrowValue(uint16(st))
	}
	return stateValue(uint32(st))
}

// wordDistance is st's distance: 0 while unresolved.
func wordDistance[W stateWord](st W) uint16 {
	if narrow[W]() {
		return narrowDistance(uint16(st))
	}
	return stateDistance(uint32(st))
}

// wordResolvedAt is the state resolved with value v at distance dist
// (at most maxWordDistance).
func wordResolvedAt[W stateWord](v int8, dist uint16) W {
	if narrow[W]() {
		return W(narrowResolvedAt(v, dist))
	}
	return W(resolvedAt(v, dist))
}

func narrowResolvedAt(v int8, dist uint16) uint16 {
	return narrowResolved | uint16(uint8(v)&0x7f)<<8 | dist&0xff
}

// maxWordDistance is the longest distance W holds.
func maxWordDistance[W stateWord]() int {
	if narrow[W]() {
		return narrowDistanceLimit
	}
	return MaxDistance
}

// errWordDistance is the error of a line longer than W's distances.
func errWordDistance[W stateWord]() error {
	if narrow[W]() {
		return errNarrowDistance
	}
	return errDistance
}

// loadWord is an atomic load of *st: the narrow word through the 32-bit
// word that holds it.
func loadWord[W stateWord](st *W) W {
	if narrow[W]() {
		w, shift := narrowHome((*uint16)(unsafe.Pointer(st)))
		return W(uint16(atomic.LoadUint32(w) >> shift))
	}
	return W(atomic.LoadUint32((*uint32)(unsafe.Pointer(st))))
}

// casWord is an atomic compare-and-swap of *st from old to nu; a narrow
// word is swapped within its 32-bit word, retried while only the other
// half changes.
func casWord[W stateWord](st *W, old, nu W) bool {
	if !narrow[W]() {
		return atomic.CompareAndSwapUint32((*uint32)(unsafe.Pointer(st)), uint32(old), uint32(nu))
	}
	w, shift := narrowHome((*uint16)(unsafe.Pointer(st)))
	for {
		whole := atomic.LoadUint32(w)
		if uint16(whole>>shift) != uint16(old) {
			return false
		}
		swapped := whole&^(0xffff<<shift) | uint32(uint16(nu))<<shift
		if atomic.CompareAndSwapUint32(w, whole, swapped) {
			return true
		}
	}
}

// narrowHome returns the aligned 32-bit word holding *p and the shift of
// *p's bits in it (little-endian: nativeLittleEndian).
func narrowHome(p *uint16) (*uint32, uint) {
	return (*uint32)(unsafe.Pointer(uintptr(unsafe.Pointer(p)) &^ 3)), uint(uintptr(unsafe.Pointer(p))&2) * 8
}

// makeNarrowState returns a narrow state of n words, its backing array
// of an even length so that the 32-bit word holding the last one
// (narrowHome) is inside it.
func makeNarrowState(n int64) []uint16 {
	state := make([]uint16, n, n+n&1)
	hugepage.Advise(state)
	return state
}
