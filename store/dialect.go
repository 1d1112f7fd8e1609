package store

import (
	"strconv"
	"strings"
	"sync"
)

// The store speaks one SQL to two engines. Almost every statement is portable: `?` placeholders
// (rewritten to PostgreSQL's `$n` by the driver wrapper in postgres.go, once per statement
// string), `ON CONFLICT … DO UPDATE/NOTHING`, `RETURNING id` for new ids, times as Unix seconds
// passed from Go, booleans stored as 0/1 integers (the wrapper sends Go bools as 0/1), and the
// few SQLite functions the store uses (json_each over an array, json_group_array, instr,
// json_valid) defined under the same names in PostgreSQL by its migration 0001. What still
// differs (pragmas, the outbox's sequence, the rowid) is asked of the store's engine below.

// engine is the database engine a store runs on.
type engine int

const (
	engineSQLite engine = iota
	enginePostgres
)

// String answers the engine's name as the operator knows it.
func (e engine) String() string {
	if e == enginePostgres {
		return "postgres"
	}
	return "sqlite"
}

// rebindCache maps a statement written with `?` (or `?NNN`) placeholders to its `$n` form.
// Key: the statement text; never invalidated (statement texts are a bounded set of the
// program's own strings plus the IN-lists' lengths); tested by TestRebind.
var rebindCache sync.Map

// rebind rewrites SQLite's `?` and `?NNN` placeholders to PostgreSQL's `$n`, leaving string
// literals, quoted identifiers and comments alone.
func rebind(q string) string {
	if v, ok := rebindCache.Load(q); ok {
		return v.(string)
	}
	if !strings.ContainsRune(q, '?') {
		rebindCache.Store(q, q)
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c { // doubled quote inside the literal
						j += 2
						continue
					}
					break
				}
				j++
			}
			if j >= len(q) {
				j = len(q) - 1
			}
			b.WriteString(q[i : j+1])
			i = j
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j - 1
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			j := strings.Index(q[i+2:], "*/")
			end := len(q)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			b.WriteString(q[i:end])
			i = end - 1
		case c == '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			b.WriteByte('$')
			if j > i+1 { // ?NNN names its parameter; a later bare ? takes the next number, as in SQLite
				b.WriteString(q[i+1 : j])
				if k := atoi(q[i+1 : j]); k > n {
					n = k
				}
			} else {
				n++
				b.WriteString(itoa(n))
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	out := b.String()
	rebindCache.Store(q, out)
	return out
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}

// rowidColumn names the column that identifies a row of a table without a declared key
// (rate_events): SQLite's implicit rowid, PostgreSQL's id column added by its twin migration.
func (s *Store) rowidColumn() string {
	if s.engine == enginePostgres {
		return "id"
	}
	return "rowid"
}

// notIndexed tells SQLite's planner to scan the table (a hint PostgreSQL's planner neither takes
// nor needs).
func (s *Store) notIndexed() string {
	if s.engine == enginePostgres {
		return ""
	}
	return " NOT INDEXED"
}

// fixedJoin is an inner join that SQLite must run in the order written (its CROSS JOIN); a
// plain JOIN on PostgreSQL, whose planner orders joins by their costs.
func (s *Store) fixedJoin() string {
	if s.engine == enginePostgres {
		return "JOIN"
	}
	return "CROSS JOIN"
}

// idsIn answers the condition that col is one of ids (at least one), and its arguments. On
// SQLite the ids go as one JSON array read by json_each, so the statement's text is the same
// for any number of ids and stays in each connection's statement cache; an IN list of n
// placeholders was a statement of its own for each n (the cards of a page's form cache misses,
// a different n nearly every time), compiled again whenever it had fallen out of the cache.
// PostgreSQL keeps the list: its planner would guess a set-returning function at a thousand
// rows, and its driver prepares each text once per connection anyway. TestIDsInMatchesTheList.
func (s *Store) idsIn(col string, ids []int64) (string, []any) {
	if s.engine == enginePostgres {
		args := make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
		}
		return col + ` IN (?` + strings.Repeat(",?", len(ids)-1) + `)`, args
	}
	b := make([]byte, 0, 2+8*len(ids))
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	b = append(b, ']')
	return col + ` IN (SELECT value FROM json_each(?))`, []any{string(b)}
}

// Engine answers "sqlite" or "postgres".
func (s *Store) Engine() string { return s.engine.String() }

// IsPostgres reports whether the store runs on PostgreSQL (shared by several replicas).
func (s *Store) IsPostgres() bool { return s.engine == enginePostgres }
