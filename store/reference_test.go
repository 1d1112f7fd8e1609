package store_test

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"kardan/store"
	"kardan/store/storetest"
)

func seedSmall(t *testing.T, st *store.Store) {
	t.Helper()
	field := int64(1)
	_, err := st.SeedReference(context.Background(),
		[]store.Province{
			{ID: 1, FarsiName: "تهران", EnglishName: "Tehran", Slug: "tehran", Lat: 35.69, Long: 51.39},
			{ID: 2, FarsiName: "آذربایجان شرقی", EnglishName: "East Azerbaijan", Slug: "east-azerbaijan", Lat: 38.08, Long: 46.29},
		},
		[]store.City{
			{ID: 1, ProvinceID: 1, FarsiName: "تهران", EnglishName: "Tehran", Slag: "tehran", Lat: 35.6892, Long: 51.3890, Capital: true},
			{ID: 2, ProvinceID: 1, FarsiName: "ورامین", EnglishName: "Varamin", Slag: "varamin", Lat: 35.3242, Long: 51.6457},
			{ID: 3, ProvinceID: 2, FarsiName: "تبریز", EnglishName: "Tabriz", Slag: "tabriz", Lat: 38.0800, Long: 46.2919, Capital: true},
		},
		[]store.Category{
			{ID: 1, FarsiName: "تأسیسات ساختمان", EnglishName: "Building services", Slag: "building-services", Favourite: true},
			{ID: 101, ParentID: &field, FarsiName: "لوله‌کش", EnglishName: "Plumber", Slag: "plumber", Favourite: true},
			{ID: 102, ParentID: &field, FarsiName: "برق‌کار", EnglishName: "Electrician", Slag: "electrician"},
		})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
}

func TestSeedReference(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	seedSmall(t, st)

	t.Run("SecondRunChangesNothing", func(t *testing.T) {
		field := int64(1)
		n, err := st.SeedReference(ctx,
			[]store.Province{{ID: 1, FarsiName: "تهران", EnglishName: "Tehran", Slug: "tehran", Lat: 35.69, Long: 51.39}},
			[]store.City{{ID: 1, ProvinceID: 1, FarsiName: "تهران", EnglishName: "Tehran", Slag: "tehran", Lat: 35.6892, Long: 51.3890, Capital: true}},
			[]store.Category{{ID: 101, ParentID: &field, FarsiName: "لوله‌کش", EnglishName: "Plumber", Slag: "plumber", Favourite: true}})
		if err != nil {
			t.Fatal(err)
		}
		if n.Changed() {
			t.Fatalf("got %+v, want nothing changed", n)
		}
	})

	t.Run("ChangedRowIsUpdated", func(t *testing.T) {
		n, err := st.SeedReference(ctx, []store.Province{{ID: 1, FarsiName: "تهران", EnglishName: "Tehran Province", Slug: "tehran", Lat: 35.69, Long: 51.39}}, nil, nil)
		if err != nil || n.Provinces != 1 {
			t.Fatalf("got %+v %v, want one province changed", n, err)
		}
		p, _ := st.Province(ctx, 1)
		if p.EnglishName != "Tehran Province" {
			t.Fatalf("got %q", p.EnglishName)
		}
	})

	t.Run("Cities", func(t *testing.T) {
		id := int64(1)
		cs, err := st.Cities(ctx, store.CityFilter{ProvinceID: &id})
		if err != nil || len(cs) != 2 {
			t.Fatalf("got %d cities %v, want 2", len(cs), err)
		}
		if !cs[0].Capital {
			t.Errorf("capital first: got %+v", cs[0])
		}
		if _, err := st.City(ctx, 999); store.ErrorCode(err) != store.ENotFound {
			t.Errorf("missing city: got %v", err)
		}
		c, err := st.CityBySlag(ctx, "tabriz")
		if err != nil || c.ProvinceID != 2 {
			t.Errorf("tabriz: got %+v %v", c, err)
		}
	})

	t.Run("NearestCity", func(t *testing.T) {
		// A point in Tabriz's bazaar is nearest Tabriz; one south of Tehran is nearest Varamin.
		c, d, err := st.NearestCity(ctx, 38.081, 46.295)
		if err != nil || c.Slag != "tabriz" || d > 2000 {
			t.Fatalf("got %+v %.0f %v", c, d, err)
		}
		c, _, _ = st.NearestCity(ctx, 35.30, 51.66)
		if c.Slag != "varamin" {
			t.Fatalf("got %s, want varamin", c.Slag)
		}
	})

	t.Run("CategoryTree", func(t *testing.T) {
		tree, err := st.CategoryTree(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(tree.Roots) != 1 || len(tree.Roots[0].Children) != 2 {
			t.Fatalf("got %d roots", len(tree.Roots))
		}
		if tree.BySlag("plumber").ID != 101 || !tree.ByID(1).IsField() || tree.ByID(101).IsField() {
			t.Fatal("lookups disagree")
		}
		if favs := tree.Favourites(); len(favs) != 2 || favs[0].ID != 1 {
			t.Fatalf("favourites: got %d", len(favs))
		}
	})
}

func TestHaversine(t *testing.T) {
	// Tehran to Tabriz is about 530 km as the crow flies.
	d := store.Haversine(35.6892, 51.3890, 38.0800, 46.2919)
	if math.Abs(d-530000) > 15000 {
		t.Fatalf("got %.0f m, want about 530 km", d)
	}
	if store.Haversine(35, 51, 35, 51) != 0 {
		t.Fatal("distance to itself is not zero")
	}
	// One degree of latitude is about 111.19 km (SPEC.md §9).
	if d := store.Haversine(30, 50, 31, 50); math.Abs(d-111195) > 50 {
		t.Fatalf("one degree: got %.0f", d)
	}
}

// A seed that moves or renames a city, or moves a category to another field, carries the
// profiles naming it along (province, field, key_word, the index queue); rows an operator added
// are neither overwritten nor in the way.
func TestSeedFollowsAndSparesOperators(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kardan.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	w, err := sql.Open("sqlite3", path+"?_busy_timeout=5000") // the store's own pool only reads
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	seedSmall(t, st)
	field := int64(1)
	// A second field, and an operator's own city and category.
	if _, err = st.SeedReference(ctx, nil, nil, []store.Category{
		{ID: 2, FarsiName: "سلامت", EnglishName: "Health", Slag: "health"}}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO cities (id, province_id, farsi_name, english_name, slag, lat, long) VALUES (50, 1, 'شهرک من', 'My town', 'my-town', 35.7, 51.4)`,
		`INSERT INTO work_categories (id, parent_id, farsi_name, english_name, slag) VALUES (150, 1, 'کار من', 'My trade', 'my-trade')`,
	} {
		if _, err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	refs := &store.ProfileRefs{}
	tree, _ := st.CategoryTree(ctx)
	varamin, _ := st.CityBySlag(ctx, "varamin")
	tehran, _ := st.Province(ctx, 1)
	refs.Field, refs.Categories, refs.City, refs.Province = tree.ByID(1), []*store.Category{tree.ByID(102)}, varamin, tehran
	users := []*store.User{{NumberPhone: "09120000001", Name: "علی", PasswordHash: "x"}}
	p := &store.Profile{RangeWorkerID: 1, ProvinceID: 1, CityID: 2, CategoryIDs: []int64{102}, ProfileName: "برق امید",
		Slug: "barq-omid", KeyWord: store.KeyWord("برق امید", refs), AccountStatus: store.StatusAccepted, Active: true, Display: true}
	if err := st.BulkLoad(ctx, users, []*store.Profile{p}, []int{0}, nil); err != nil {
		t.Fatal(err)
	}
	w.Exec(`DELETE FROM index_outbox`)

	// Varamin moves to East Azerbaijan under a new name; the electrician category moves to Health.
	health := int64(2)
	n, err := st.Seed(ctx, store.Reference{
		Cities: []store.City{
			{ID: 2, ProvinceID: 2, FarsiName: "ورامین نو", EnglishName: "New Varamin", Slag: "varamin", Lat: 38.0, Long: 46.3, Aliases: []string{"ورامین"}},
			// The operator's id and slug: both shipped rows are left out.
			{ID: 50, ProvinceID: 1, FarsiName: "شهر ما", EnglishName: "Our town", Slag: "our-town", Lat: 35.7, Long: 51.4},
			{ID: 51, ProvinceID: 1, FarsiName: "شهر دیگر", EnglishName: "Other town", Slag: "my-town", Lat: 35.7, Long: 51.4},
		},
		Categories: []store.Category{
			{ID: 102, ParentID: &health, FarsiName: "برق‌کار", EnglishName: "Electrician", Slag: "electrician", Synonyms: []string{"برقکار", "electric"}},
			{ID: 150, ParentID: &field, FarsiName: "کار ما", EnglishName: "Our trade", Slag: "our-trade"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if n.Cities != 1 || n.Categories != 1 || n.Skipped != 3 || n.Profiles != 1 {
		t.Fatalf("counts %+v, want 1 city, 1 category, 3 skipped, 1 profile", n)
	}
	var prov, fieldID int64
	var kw string
	if err := st.DB().QueryRow(`SELECT province_id, range_worker_id, key_word FROM profiles WHERE id = ?`, p.ID).Scan(&prov, &fieldID, &kw); err != nil {
		t.Fatal(err)
	}
	if prov != 2 || fieldID != 2 || !strings.Contains(kw, "ورامین نو New Varamin آذربایجان شرقی East Azerbaijan سلامت Health") {
		t.Fatalf("profile: province %d field %d key_word %q", prov, fieldID, kw)
	}
	var queued int
	st.DB().QueryRow(`SELECT COUNT(*) FROM index_outbox WHERE entity = 'profile' AND entity_id = ?`, p.ID).Scan(&queued)
	if queued != 1 {
		t.Fatalf("queued %d times, want once", queued)
	}
	if c, _ := st.CityBySlag(ctx, "my-town"); c == nil || c.ID != 50 || c.FarsiName != "شهرک من" {
		t.Fatalf("operator's city: %+v", c)
	}
	if c, _ := st.CityBySlag(ctx, "varamin"); c == nil || len(c.Aliases) != 1 || c.Aliases[0] != "ورامین" {
		t.Fatalf("varamin: %+v", c)
	}
	syn, err := st.CategorySynonyms(ctx)
	if err != nil || len(syn[102]) != 2 || syn[102][1] != "electric" {
		t.Fatalf("synonyms %v %v", syn, err)
	}
	// The same seed again changes nothing and moves no one.
	n, err = st.Seed(ctx, store.Reference{Cities: []store.City{
		{ID: 2, ProvinceID: 2, FarsiName: "ورامین نو", EnglishName: "New Varamin", Slag: "varamin", Lat: 38.0, Long: 46.3, Aliases: []string{"ورامین"}}}})
	if err != nil || n.Changed() {
		t.Fatalf("second seed: %+v %v", n, err)
	}
}
