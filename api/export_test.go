package api

// FormCacheCounts answers the form cache's counters: forms found, forms read and times it
// started again empty.
func FormCacheCounts(s *Server) (hits, misses, emptied uint64) {
	c := &s.forms
	return c.hits.Load(), c.misses.Load(), c.emptied.Load()
}

// FormSlabBytes is the size of a slab cached forms are cut from.
const FormSlabBytes = formSlabBytes
