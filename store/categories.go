package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
)

// Category is a node of the work-category tree: a field of work (the spec's range_worker, no
// parent) or a category inside one.
type Category struct {
	ID          int64       `json:"id"`
	ParentID    *int64      `json:"parent_id"`
	FarsiName   string      `json:"farsi_name"`
	EnglishName string      `json:"english_name"`
	Slag        string      `json:"slag"`
	Favourite   bool        `json:"favourite"`
	Synonyms    []string    `json:"synonyms"` // other words people search this category by (fa and en)
	Sort        int         `json:"-"`
	Children    []*Category `json:"children"`
}

// IsField reports whether c is a field of work (a root of the tree).
func (c *Category) IsField() bool { return c.ParentID == nil }

// Categories is the whole tree, read once and kept: it changes only when the reference data is
// seeded again.
type Categories struct {
	Roots []*Category
	byID  map[int64]*Category
	bySlg map[string]*Category
}

// ByID answers a node by id, or nil.
func (t *Categories) ByID(id int64) *Category { return t.byID[id] }

// BySlag answers a node by slug, or nil.
func (t *Categories) BySlag(slag string) *Category { return t.bySlg[slag] }

// Favourites answers the favourite nodes (fields first, then categories), for quick access.
func (t *Categories) Favourites() []*Category {
	out := []*Category{}
	for _, r := range t.Roots {
		if r.Favourite {
			out = append(out, r)
		}
	}
	for _, r := range t.Roots {
		for _, c := range r.Children {
			if c.Favourite {
				out = append(out, c)
			}
		}
	}
	return out
}

// CategoryTree reads the whole work-category tree.
func (s *Store) CategoryTree(ctx context.Context) (*Categories, error) {
	rows, err := s.read.QueryContext(ctx, categorySelect)
	if err != nil {
		return nil, fmt.Errorf("category tree: %w", err)
	}
	defer rows.Close()
	t, err := buildTree(rows)
	if err != nil {
		return nil, fmt.Errorf("category tree: %w", err)
	}
	return t, nil
}

const categorySelect = `SELECT id, parent_id, farsi_name, english_name, slag, favourite, sort, synonyms FROM work_categories`

// buildTree assembles the tree from rows of work_categories, each level in its sort order.
func buildTree(rows *sql.Rows) (*Categories, error) {
	t := &Categories{Roots: []*Category{}, byID: map[int64]*Category{}, bySlg: map[string]*Category{}}
	var all []*Category
	for rows.Next() {
		c := &Category{Children: []*Category{}, Synonyms: []string{}}
		var synonyms string
		if err := rows.Scan(&c.ID, &c.ParentID, &c.FarsiName, &c.EnglishName, &c.Slag, &c.Favourite, &c.Sort, &synonyms); err != nil {
			return nil, err
		}
		if synonyms != "" && synonyms != "[]" {
			if err := json.Unmarshal([]byte(synonyms), &c.Synonyms); err != nil {
				return nil, fmt.Errorf("category %d synonyms: %w", c.ID, err)
			}
		}
		t.byID[c.ID] = c
		t.bySlg[c.Slag] = c
		all = append(all, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Sort != all[j].Sort {
			return all[i].Sort < all[j].Sort
		}
		return all[i].ID < all[j].ID
	})
	for _, c := range all {
		if c.ParentID == nil {
			t.Roots = append(t.Roots, c)
		} else if p := t.byID[*c.ParentID]; p != nil {
			p.Children = append(p.Children, c)
		}
	}
	return t, nil
}

// CategorySynonyms answers every category's and field's search synonyms by id (Persian and
// English words people search the category by, besides its names), for the search engine's
// analysis. Categories without synonyms are left out.
func (s *Store) CategorySynonyms(ctx context.Context) (map[int64][]string, error) {
	t, err := s.CategoryTree(ctx)
	if err != nil {
		return nil, err
	}
	out := map[int64][]string{}
	for id, c := range t.byID {
		if len(c.Synonyms) > 0 {
			out[id] = c.Synonyms
		}
	}
	return out, nil
}
