package search

import (
	"fmt"
	"syscall"
	"unsafe"
)

// The facts table (rows and prices) lives in memory mapped from the kernel, outside the Go heap.
// On the heap it was most of the live heap at a million profiles (86 of 125 MB), and the
// collector lets the heap grow to twice what is live before it runs: 86 MB more resident memory
// for a table that never becomes garbage. Outside, the heap's headroom is reckoned on the rest.
// The rows hold no pointers (a pointer the collector cannot see would be a bug); a test checks.
//
// Memory is given back when a table is replaced or the index closed, always under the facts'
// write lock: every reader holds the read lock for as long as it reads (facts.lend), so no
// reader can hold a slice of memory that is gone. Capacity beyond the length costs address
// space only: the kernel gives a page when it is first written.

// mapSlice answers a zeroed slice of n T outside the Go heap (nil for none).
func mapSlice[T any](n int) []T {
	if n <= 0 {
		return nil
	}
	size := int(unsafe.Sizeof(*new(T)))
	b, err := syscall.Mmap(-1, 0, n*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		// As the runtime does when the heap cannot grow: nothing sensible goes on without memory.
		panic(fmt.Sprintf("search: mapping %d bytes for the facts table: %v", n*size, err))
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// unmapSlice gives back the memory of a slice from mapSlice (its whole capacity).
func unmapSlice[T any](s []T) {
	if cap(s) == 0 {
		return
	}
	size := int(unsafe.Sizeof(*new(T)))
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s[:1]))), cap(s)*size)
	if err := syscall.Munmap(b); err != nil {
		panic(fmt.Sprintf("search: unmapping %d bytes of the facts table: %v", len(b), err))
	}
}

// resized answers s with length n, its new elements zero, moved to a larger mapping (and the old
// one given back) when its capacity is short. Like append, it grows by a quarter at least, so a
// table growing a row at a time is copied O(log n) times.
func resized[T any](s []T, n int) []T {
	if n <= cap(s) {
		if n > len(s) {
			clear(s[len(s):n])
		}
		return s[:n]
	}
	grown := mapSlice[T](max(n, cap(s)+cap(s)/4, 1024))
	copy(grown, s)
	unmapSlice(s)
	return grown[:n]
}

// appended answers s with vals after it (see resized).
func appended[T any](s []T, vals ...T) []T {
	n := len(s)
	s = resized(s, n+len(vals))
	copy(s[n:], vals)
	return s
}
