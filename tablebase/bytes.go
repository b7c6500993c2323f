package tablebase

import "unsafe"

// int8Bytes views values as bytes, for hashing and compression, without a
// copy. int8 and byte have the same size and alignment.
func int8Bytes(values []int8) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(values))), len(values))
}
