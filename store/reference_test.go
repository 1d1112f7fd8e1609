package store_test

import (
	"context"
	"math"
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
