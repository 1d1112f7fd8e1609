package store_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"kardan/store"
)

// A database made before migration 0015 (every migration below it applied, Tabas filed under
// Yazd as the old data had it) gets the new columns, and Tabas with its profiles moves to South
// Khorasan, their key_word naming it, each queued for the index. A city an operator added is
// untouched.
func TestMigration0015MovesTabas(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kardan.db")
	db, err := sql.Open("sqlite3", path+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("migrations/*.sql")
	sort.Strings(files)
	if _, err := db.Exec(`CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		base := filepath.Base(f)
		v, _ := strconv.Atoi(base[:4])
		if v >= 15 {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		if _, err := db.Exec(`INSERT INTO migrations VALUES (?, ?, 0)`, v, strings.TrimSuffix(base, ".sql")); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`INSERT INTO provinces VALUES (28, 'یزد', 'Yazd', 'yazd', 31.9, 54.36), (30, 'خراسان جنوبی', 'South Khorasan', 'south-khorasan', 32.87, 59.22)`,
		`INSERT INTO cities (id, province_id, farsi_name, english_name, slag, lat, long) VALUES
			(447, 28, 'طبس', 'Tabas', 'tabas', 33.5958, 56.9244), (444, 28, 'یزد', 'Yazd', 'yazd', 31.9, 54.36),
			(9001, 28, 'شهر من', 'My town', 'my-town', 31.8, 54.3)`,
		`INSERT INTO work_categories (id, farsi_name, english_name, slag) VALUES (1, 'تأسیسات ساختمان', 'Building services', 'building-services')`,
		`INSERT INTO users (id, number_phone, password_hash, create_at, update_at) VALUES (1, '09120000001', 'x', 0, 0)`,
		`INSERT INTO profiles (id, user_id, range_worker_id, province_id, city_id, profile_name, slug, key_word, create_at, update_at) VALUES
			(1, 1, 1, 28, 447, 'لوله‌کشی امید', 'p-tabas', 'لوله‌کشی امید طبس Tabas یزد Yazd تأسیسات ساختمان Building services', 0, 0),
			(2, 1, 1, 28, 444, 'برق یزد', 'p-yazd', 'برق یزد یزد Yazd یزد Yazd تأسیسات ساختمان Building services', 0, 0),
			(3, 1, 1, 28, 9001, 'نقاشی', 'p-mine', 'نقاشی شهر من My town یزد Yazd', 0, 0)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := st.CityBySlag(ctx, "tabas")
	if err != nil || c.ProvinceID != 30 {
		t.Fatalf("tabas after the migration: %+v %v", c, err)
	}
	if c, _ := st.CityBySlag(ctx, "my-town"); c == nil || c.ProvinceID != 28 || c.FarsiName != "شهر من" {
		t.Fatalf("the operator's city changed: %+v", c)
	}
	rows, err := st.DB().Query(`SELECT id, province_id, key_word FROM profiles ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]struct {
		prov int64
		kw   string
	}{
		1: {30, "لوله‌کشی امید طبس Tabas خراسان جنوبی South Khorasan تأسیسات ساختمان Building services"},
		2: {28, "برق یزد یزد Yazd یزد Yazd تأسیسات ساختمان Building services"},
		3: {28, "نقاشی شهر من My town یزد Yazd"},
	}
	for rows.Next() {
		var id, prov int64
		var kw string
		if err := rows.Scan(&id, &prov, &kw); err != nil {
			t.Fatal(err)
		}
		if w := want[id]; prov != w.prov || kw != w.kw {
			t.Errorf("profile %d: province %d key_word %q, want %d %q", id, prov, kw, w.prov, w.kw)
		}
	}
	rows.Close()
	var queued []int64
	rows, _ = st.DB().Query(`SELECT entity_id FROM index_outbox WHERE entity = 'profile'`)
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		queued = append(queued, id)
	}
	rows.Close()
	if len(queued) != 1 || queued[0] != 1 {
		t.Errorf("queued for the index: %v, want [1]", queued)
	}
}
