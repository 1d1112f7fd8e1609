package admin

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// verifyDatabase compares every table's rows and checksum on both sides and answers the source's
// sums; any difference is an error naming the tables.
func verifyDatabase(ctx context.Context, src, dst *sql.DB, tables []string, cols map[string][]string) ([]TableSum, error) {
	var out []TableSum
	var bad []string
	for _, t := range tables {
		a, err := sumTable(ctx, src, t, cols[t])
		if err != nil {
			return nil, err
		}
		b, err := sumTable(ctx, dst, t, cols[t])
		if err != nil {
			return nil, err
		}
		if a != b {
			bad = append(bad, fmt.Sprintf("%s (source %d rows %s, target %d rows %s)", t, a.Rows, a.Sum[:12], b.Rows, b.Sum[:12]))
		}
		out = append(out, a)
	}
	if len(bad) > 0 {
		return out, fmt.Errorf("verify: the copy differs in %s", strings.Join(bad, "; "))
	}
	return out, nil
}

// sumTable reads every row of a table and answers its count and an order-independent checksum:
// the sum (mod 2^128) of each row's SHA-256 over its values in a form both engines agree on
// (numbers by value, integral floats as integers, text and bytes alike, NULL apart).
func sumTable(ctx context.Context, db *sql.DB, table string, cols []string) (TableSum, error) {
	qcols := make([]string, len(cols))
	for i, c := range cols {
		qcols[i] = quote(c)
	}
	rows, err := db.QueryContext(ctx, `SELECT `+strings.Join(qcols, ", ")+` FROM `+quote(table))
	if err != nil {
		return TableSum{}, fmt.Errorf("verify %s: %w", table, err)
	}
	defer rows.Close()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var n int64
	var hi, lo uint64
	h := sha256.New()
	var buf []byte
	var sum [sha256.Size]byte
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return TableSum{}, fmt.Errorf("verify %s: %w", table, err)
		}
		h.Reset()
		for _, v := range vals {
			buf = canonical(buf[:0], v)
			h.Write(buf)
		}
		h.Sum(sum[:0])
		l := binary.BigEndian.Uint64(sum[8:16])
		nlo := lo + l
		carry := uint64(0)
		if nlo < lo {
			carry = 1
		}
		lo = nlo
		hi += binary.BigEndian.Uint64(sum[0:8]) + carry
		n++
	}
	if err := rows.Err(); err != nil {
		return TableSum{}, fmt.Errorf("verify %s: %w", table, err)
	}
	var out [16]byte
	binary.BigEndian.PutUint64(out[0:8], hi)
	binary.BigEndian.PutUint64(out[8:16], lo)
	return TableSum{Table: table, Rows: n, Sum: hex.EncodeToString(out[:])}, nil
}

// canonical appends v's engine-independent form, length-prefixed so values cannot run together.
func canonical(b []byte, v any) []byte {
	tag := func(t byte, s string) []byte {
		b = append(b, t)
		b = binary.AppendUvarint(b, uint64(len(s)))
		return append(b, s...)
	}
	switch x := v.(type) {
	case nil:
		return append(b, 'n')
	case int64:
		return tag('i', strconv.FormatInt(x, 10))
	case int32:
		return tag('i', strconv.FormatInt(int64(x), 10))
	case int:
		return tag('i', strconv.Itoa(x))
	case bool:
		if x {
			return tag('i', "1")
		}
		return tag('i', "0")
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return tag('i', strconv.FormatInt(int64(x), 10))
		}
		return tag('f', strconv.FormatFloat(x, 'g', -1, 64))
	case float32:
		return canonical(b, float64(x))
	case string:
		return tag('s', x)
	case []byte:
		return tag('s', string(x))
	case time.Time:
		return tag('i', strconv.FormatInt(x.Unix(), 10))
	}
	return tag('?', fmt.Sprint(v))
}

// VerifyDatabase compares every table of the SQLite file at snapshot with dst, as a migration
// does after its copy: rows and checksums. Any difference is an error naming the tables.
func VerifyDatabase(ctx context.Context, snapshot string, dst *sql.DB) ([]TableSum, error) {
	src, err := openSnapshot(snapshot)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	tables, err := sqliteTables(ctx, src)
	if err != nil {
		return nil, err
	}
	cols := map[string][]string{}
	for _, t := range tables {
		if cols[t], err = columnsOf(ctx, src, t); err != nil {
			return nil, err
		}
	}
	return verifyDatabase(ctx, src, dst, tables, cols)
}
