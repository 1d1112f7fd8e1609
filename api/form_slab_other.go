//go:build !unix

package api

// slabMemory answers n bytes of the heap where there are no anonymous memory maps.
func slabMemory(n int) (mem []byte, mapped bool) { return make([]byte, n), false }

func releaseSlabMemory([]byte) {}
