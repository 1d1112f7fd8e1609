package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// uniqueSlug answers a slug for name not used by another row of table: the name's slug, then with
// the city's slug, then numbered.
//
// The candidates are made as they are asked about, in growing groups of one statement each (1,
// then 4, 16, …: a few statement texts, which stay in the statement cache). It used to build all
// thousand on every call and ask one statement a candidate, inside the store's one writer: 110 us
// for a free name, and the hundredth article titled alike cost a hundred statements (a third of
// the writer's time under make loadtest). TestUniqueSlugAsPlain holds it to asking one at a time.
func uniqueSlug(ctx context.Context, tx *sql.Tx, table, name, city string, selfID int64) (string, error) {
	c := newSlugCandidates(table, name, city)
	var group []string
	var args []any
	for lo, n := 0, 1; lo < c.n; lo, n = lo+n, n*4 {
		group, args = group[:0], args[:0]
		for i := lo; i < min(lo+n, c.n); i++ {
			group = append(group, c.at(i))
			args = append(args, group[len(group)-1])
		}
		args = append(args, selfID)
		taken, err := queryRows(ctx, tx, scanSlug, `SELECT slug FROM `+table+` WHERE slug IN (?`+strings.Repeat(",?", len(group)-1)+`) AND id != ?`, args...)
		if err != nil {
			return "", err
		}
		for _, s := range group {
			if !slices.Contains(taken, s) {
				return s, nil
			}
		}
	}
	return fmt.Sprintf("%s-%d", c.base, time.Now().UnixNano()), nil
}

func scanSlug(sc scanner) (string, error) {
	var s string
	err := sc.Scan(&s)
	return s, err
}

// slugCandidates are the slugs uniqueSlug tries, in order: the base, with the city's slug when
// there is a city, then numbered from 2 to 999.
type slugCandidates struct {
	base, city string
	n          int
}

func newSlugCandidates(table, name, city string) slugCandidates {
	base := Slugify(name)
	if base == "" {
		base = table[:len(table)-1]
	}
	c := slugCandidates{base: base, city: city, n: 999}
	if city != "" {
		c.n++
	}
	return c
}

// at answers the i-th candidate, 0 <= i < n.
func (c slugCandidates) at(i int) string {
	if i == 0 {
		return c.base
	}
	if c.city != "" {
		if i == 1 {
			return c.base + "-" + c.city
		}
		i--
	}
	return c.base + "-" + strconv.Itoa(i+1)
}
