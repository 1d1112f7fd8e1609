package store

import "testing"

// The cache stays within twice its half, keeps what is read often, and empties when the head
// moves on, but not for a reader that saw an older head.
func TestProfileCacheBounds(t *testing.T) {
	c := &profileCache{half: 4}
	if !c.at(7) {
		t.Fatal("a new cache does not serve its head")
	}
	hot := &Profile{ID: 1}
	c.put(hot)
	for id := int64(2); id < 40; id++ {
		c.put(&Profile{ID: id})
		if c.get(1) != hot {
			t.Fatalf("after %d puts the profile read each time is gone", id)
		}
		if n := len(c.hot) + len(c.cold); n > 2*c.half {
			t.Fatalf("%d profiles kept, bound %d", n, 2*c.half)
		}
	}
	if c.get(2) != nil {
		t.Fatal("a profile read once long ago is still kept")
	}
	if c.at(6) || c.get(1) != hot {
		t.Fatal("an older head emptied or was served by the cache")
	}
	if !c.at(8) || c.get(1) != nil {
		t.Fatal("a newer head kept the old profiles")
	}
}
