package search

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMappedSlicesAsAppend: slices outside the heap, grown a row and a run at a time and cut
// back, hold what a plain slice built by append holds, zeroes in the new rows, and give their
// memory back without a fault.
func TestMappedSlicesAsAppend(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var mapped, plain []int64
	for round := range 5000 {
		switch rng.IntN(5) {
		case 0: // grow to a length, as a new profile id does
			n := len(plain) + rng.IntN(3000)
			mapped = resized(mapped, n)
			for len(plain) < n {
				plain = append(plain, 0)
			}
		case 1: // cut back, then grow over what was cut: it must read as zero again
			n := rng.IntN(len(plain) + 1)
			mapped, plain = mapped[:n], plain[:n]
		default:
			vals := make([]int64, rng.IntN(9))
			for i := range vals {
				vals[i] = rng.Int64()
			}
			mapped, plain = appended(mapped, vals...), append(plain, vals...)
		}
		if !slices.Equal(mapped, plain) {
			t.Fatalf("round %d: the mapped slice (len %d) differs from append's (len %d)", round, len(mapped), len(plain))
		}
	}
	if cap(mapped) < len(plain) || len(plain) == 0 {
		t.Fatalf("capacity %d for %d", cap(mapped), len(plain))
	}
	unmapSlice(mapped)
	unmapSlice[int64](nil)
	if s := mapSlice[fact](0); s != nil {
		t.Fatalf("an empty table is mapped: %d", cap(s))
	}
}
