package api

// FormCacheCounts answers the form cache's counters: forms found, forms read, times it started
// again empty and times it followed the outbox.
func FormCacheCounts(s *Server) (hits, misses, emptied, caughtUp uint64) {
	c := &s.forms
	return c.hits.Load(), c.misses.Load(), c.emptied.Load(), c.caughtUp.Load()
}
