//go:build !linux

package api

// slabMemory answers n bytes of the heap: the anonymous maps, prefaulted in one call, are
// Linux's (form_slab_linux.go).
func slabMemory(n int) (mem []byte, mapped bool) { return make([]byte, n), false }

func releaseSlabMemory([]byte) {}
