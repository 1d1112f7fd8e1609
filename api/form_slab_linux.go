//go:build linux

package api

import "syscall"

// slabMemory answers n bytes of anonymous mapped memory, outside Go's heap, or of the heap if
// the map fails; mapped says which.
func slabMemory(n int) (mem []byte, mapped bool) {
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_POPULATE)
	if err != nil {
		return make([]byte, n), false
	}
	return mem, true
}

func releaseSlabMemory(mem []byte) { _ = syscall.Munmap(mem) }
