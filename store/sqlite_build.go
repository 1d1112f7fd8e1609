package store

import (
	"context"
	"database/sql"
	"slices"
	"sync"
)

// The SQLite library is compiled into the binary from go-sqlite3's copy, with the C flags of
// the build. The Makefile adds -DSQLITE_ENABLE_QPSG (the query planner stability guarantee:
// a statement's plan never depends on the values bound to it), because without it most of our
// cached statements were compiled again at every call. SQLite marks a statement to be compiled
// again when its plan looked at a bound value (any LIMIT ?, an equality on a column no index
// serves, a column a partial index is about), and go-sqlite3 clears the bindings before each
// call, which expires every statement so marked, whether the new value would change the plan
// or not. A profile's comments spent 0.28 of their 0.38 ms compiling their two statements
// (BENCHMARKS.md, session 13). The plans stay the ones SQLite picks without the values; the
// answers are the same either way.

// sqliteOptions answers the compile-time options of the SQLite library linked in.
var sqliteOptions = sync.OnceValues(func() ([]string, error) {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return queryRows(context.Background(), db, func(r scanner) (string, error) {
		var s string
		err := r.Scan(&s)
		return s, err
	}, `PRAGMA compile_options`)
})

// StablePlans reports whether the SQLite linked in was built with the query planner stability
// guarantee (see above): false for a binary built without the Makefile's CGO_CFLAGS, which
// works the same but reads more slowly. serve logs it and doctor warns of it.
func StablePlans() bool {
	opts, err := sqliteOptions()
	return err == nil && slices.Contains(opts, "ENABLE_QPSG")
}
