package api

import "testing"

// The cache stays within twice its half, keeps what is read often, and empties when the head or
// the reference data move on, but not for a reader that saw older ones.
func TestFormCacheBounds(t *testing.T) {
	c := &formCache{half: 4}
	if !c.at(7, 1) {
		t.Fatal("a new cache does not serve its head")
	}
	hot := &cachedForm{userID: 1}
	c.put(1, hot)
	for id := int64(2); id < 40; id++ {
		c.put(id, &cachedForm{})
		if c.get(1) != hot {
			t.Fatalf("after %d puts the form read each time is gone", id)
		}
		if n := len(c.hot) + len(c.cold); n > 2*c.half {
			t.Fatalf("%d forms kept, bound %d", n, 2*c.half)
		}
	}
	if c.get(2) != nil {
		t.Fatal("a form read once long ago is still kept")
	}
	if c.at(6, 1) || c.at(7, 0) || c.get(1) != hot {
		t.Fatal("an older head or older reference data emptied or was served by the cache")
	}
	if !c.at(7, 2) || c.get(1) != nil {
		t.Fatal("newer reference data kept the old forms")
	}
	c.put(1, hot)
	if !c.at(8, 1) || c.get(1) != nil {
		t.Fatal("a newer head kept the old forms")
	}
}
