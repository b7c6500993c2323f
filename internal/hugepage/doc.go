// Package hugepage asks the kernel to back large arrays with transparent
// huge pages. The tablebase build and the solver's transposition table both
// read arrays of hundreds of MB to GB at random places; with 4 KiB pages
// nearly every such read also misses the TLB. Where THP is in "madvise" mode
// (the common default) only advised memory gets huge pages.
package hugepage

// Size is the size of a transparent huge page (amd64, arm64): 2 MiB.
const Size = 2 << 20
