package api

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"kardan/store"
	"kardan/store/storetest"
)

// newRefServer answers a server (not listening) over a fresh store with the reference data, and
// the store's file.
func newRefServer(t *testing.T) (string, *store.Store, *Server) {
	t.Helper()
	st := storetest.OpenSQLite(t) // the test writes rows by hand into the SQLite file
	storetest.Seed(t, st)
	path := st.Path()
	srv, err := New(Config{BaseURL: "https://kardan.example", Location: time.UTC}, st)
	if err != nil {
		t.Fatal(err)
	}
	return path, st, srv
}

// A public answer copies a profile's stored list columns instead of decoding and encoding them
// again; what it writes must be byte for byte what the long way writes, for everything the store
// accepts, and a row written some other way (by hand, with HTML in it) must go the long way.
func TestStoredListsMatchTheLongWay(t *testing.T) {
	ctx := context.Background()
	path, st, srv := newRefServer(t)
	r, err := srv.refs(ctx)
	if err != nil {
		t.Fatal(err)
	}

	var ids []int64
	for i, s := range tricky {
		u := &store.User{NumberPhone: fmt.Sprintf("091200000%02d", i), Name: s, PasswordHash: "x", ProfileImage: s}
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		in := &store.ProfileInput{
			ProfileName: fmt.Sprintf("کارگاه %d", i), Descriotion: "تعمیر " + s, ProvinceID: 1, CityID: 1, RangeWorker: 1,
			CategoryList: []int64{101}, Location: &store.Location{Lat: 35.7, Long: 51.4},
			AreaWorking: []string{s, "منطقه ۳"}, PortfolioImages: []string{}, Option: []string{s},
			Services: []store.Service{{Title: "خدمت " + s, Price: int64(i) * 1000, Description: s}, {Title: "مشاوره"}},
			HoursOfWork: store.Hours{"saturday": {Time: []store.Slot{{Open: 8 * 3600, Close: 13 * 3600}}}, "friday": {Closed: true},
				"monday": {Boarding: true}},
			SocialNetwork: []store.SocialLink{{Type: "Telegram", Link: "@shop_" + fmt.Sprint(i)},
				{Type: "Site", Link: "https://example.com/?a=1&b=2"}, {Type: "Ather", Link: "دفتر " + s}},
		}
		if i%3 == 0 {
			in.AreaWorking, in.Services, in.HoursOfWork, in.SocialNetwork = nil, nil, nil, nil
		}
		p, err := st.CreateProfile(ctx, u.ID, in, false)
		if err != nil {
			t.Fatalf("profile with %q: %v", s, err)
		}
		ids = append(ids, p.ID)
	}
	// Rows written by hand: with markup and a line separator the answer must escape, and with
	// spaces in their JSON.
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE profiles SET services = '[{"title":"<b>bold</b> & co","price":5,"description":""}]' WHERE id = ?`, ids[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE profiles SET social_network = ? WHERE id = ?`, "[{\"type\":\"Ather\",\"link\":\"a\u2028b\"}]", ids[3]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE profiles SET area_working = '[ "north" ,  "south" ]' WHERE id = ?`, ids[2]); err != nil {
		t.Fatal(err)
	}

	long, err := st.ProfilesByIDs(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	short, owners, err := st.ProfilesWithOwners(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(short) != len(long) {
		t.Fatalf("%d profiles read the short way, %d the long way", len(short), len(long))
	}
	for i, p := range short {
		switch {
		case (i == 1 || i == 3) && p.Stored != nil:
			t.Fatalf("profile %d, with unescaped markup or a line separator in its lists, is copied as stored", i)
		case i != 1 && i != 3 && p.Stored == nil:
			t.Fatalf("profile %d (%q) was not kept as stored", i, tricky[i])
		case p.Stored != nil && (p.Services != nil || p.AreaWorking != nil || p.SocialNetwork != nil || p.Option != nil):
			t.Fatalf("profile %d kept as stored was decoded too", i)
		}
		owner := owners[p.UserID]
		want := appendProfileFormTail(appendProfileFormHead(nil, r.formOf(long[i], owner, false)), "open", nil, nil)
		got := appendProfileFormTail(appendProfileFormHead(nil, r.formOf(p, owner, false)), "open", nil, nil)
		if !json.Valid(got) {
			t.Fatalf("profile %d: the copied form is not JSON: %s", i, got)
		}
		if i == 2 {
			// Spaces in hand-written JSON are copied as they are; the values are the same.
			var a, b any
			if json.Unmarshal(got, &a) != nil || json.Unmarshal(want, &b) != nil || fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("profile %d: copied\n%s\nlong way\n%s", i, got, want)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("profile %d (%q): copied\n%s\nlong way\n%s", i, tricky[i], got, want)
		}
		if p.HoursOfWork.OpenStatus(time.Now()) != long[i].HoursOfWork.OpenStatus(time.Now()) {
			t.Fatalf("profile %d: the open status differs", i)
		}
	}
	checkCachedForms(t, r, short, owners)
}

// checkCachedForms: a cached form, kept as its own bytes and the parts it shares with other
// forms, writes the same head as appendProfileFormHead; forms with the same categories, hours or
// place share one copy of them; and a full table of parts leaves new ones in the forms' bytes.
func checkCachedForms(t *testing.T, r *refs, ps []*store.Profile, owners map[int64]store.ProfileAuthor) {
	t.Helper()
	var arena formArena
	for _, room := range []int{formPartsBytes, 150} {
		parts := &formParts{bytes: formPartsBytes - room}
		var forms []*cachedForm
		for _, p := range append(ps, ps...) {
			form := r.formOf(p, owners[p.UserID], false)
			want := appendProfileFormHead(nil, form)
			var spans []headSpan
			head := appendProfileFormHeadSharing(nil, form, &spans)
			if !bytes.Equal(head, want) || len(spans) != 3 {
				t.Fatalf("profile %d: sharing wrote another head, or %d parts:\n%s\n%s", p.ID, len(spans), head, want)
			}
			f := newCachedForm(p, head, spans, parts, &arena)
			if got := f.appendHead(nil); !bytes.Equal(got, want) {
				t.Fatalf("profile %d (room %d): the cached form writes\n%s\nnot\n%s", p.ID, room, got, want)
			}
			if f.appendHead([]byte("x"))[0] != 'x' || len(f.own)+sharedLen(f) != len(want) {
				t.Fatalf("profile %d: own and shared bytes do not add up", p.ID)
			}
			if f.slab == nil || cap(f.own) != len(f.own) {
				t.Fatalf("profile %d: own is not cut to size from a slab", p.ID)
			}
			forms = append(forms, f)
		}
		if parts.bytes > formPartsBytes {
			t.Fatalf("the parts hold %d bytes, bound %d", parts.bytes, formPartsBytes)
		}
		// Every profile has the same place: its part is one copy.
		first, last := forms[0], forms[len(forms)-1]
		if room == formPartsBytes && (len(first.cuts) != 3 || &first.cuts[2].part[0] != &last.cuts[2].part[0]) {
			t.Fatalf("forms do not share their place: %d cuts", len(first.cuts))
		}
		if room == 150 && len(parts.parts) == 0 {
			t.Fatal("a table with room for a part kept none")
		}
	}
	// A reader at an older head keeps no parts.
	if f := newCachedForm(ps[0], []byte("{}"), []headSpan{{0, 1}}, nil, &arena); len(f.cuts) != 0 || string(f.appendHead(nil)) != "{}" {
		t.Fatalf("a form without a table of parts: %q", f.appendHead(nil))
	}
}

func sharedLen(f *cachedForm) int {
	n := 0
	for _, c := range f.cuts {
		n += len(c.part)
	}
	return n
}

// The reference data is read again each minute; when nothing changed, the forms made from it
// (and the form cache filled with them) are kept, and a change makes new ones.
func TestRefsKeptWhileUnchanged(t *testing.T) {
	ctx := context.Background()
	_, st, srv := newRefServer(t)
	reread := func() *refs {
		t.Helper()
		srv.refsCache.mu.Lock()
		srv.refsCache.at = time.Time{}
		srv.refsCache.mu.Unlock()
		srv.catMu.Lock()
		srv.catsAt = time.Time{}
		srv.catMu.Unlock()
		r, err := srv.refs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := reread()
	if again := reread(); again != first || again.seq != first.seq {
		t.Fatalf("unchanged reference data made new forms: seq %d, then %d", first.seq, again.seq)
	}
	c, err := st.City(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	c.FarsiName = "تهران بزرگ"
	if _, err := st.SeedReference(ctx, nil, []store.City{*c}, nil); err != nil {
		t.Fatal(err)
	}
	changed := reread()
	if changed.seq <= first.seq || changed.cityForms[1].FarsiName != "تهران بزرگ" {
		t.Fatalf("a renamed city kept the old forms: seq %d after %d, city %+v", changed.seq, first.seq, changed.cityForms[1])
	}
}

// A search's or suggestion's city_slag is looked up in the reference data kept in memory
// (refs.citySlags); it must answer what the store answers for every city, and a city the
// reference data does not hold yet (added in the last minute) is asked of the store.
func TestCityBySlagMatchesTheStore(t *testing.T) {
	ctx := context.Background()
	st := storetest.Seeded(t) // either engine
	srv, err := New(Config{BaseURL: "https://kardan.example", Location: time.UTC}, st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := st.Cities(ctx, store.CityFilter{})
	if err != nil || len(cs) < 100 {
		t.Fatalf("cities: %d (%v)", len(cs), err)
	}
	for _, c := range cs {
		want, err := st.CityBySlag(ctx, c.Slag)
		if err != nil {
			t.Fatal(err)
		}
		got, err := srv.cityBySlag(ctx, c.Slag)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %+v (%v), want %+v", c.Slag, got, err, want)
		}
	}
	if _, err := srv.cityBySlag(ctx, "no-such-city"); store.ErrorCode(err) != store.ENotFound {
		t.Fatalf("unknown slag: got %v", err)
	}
	added := store.City{ID: 99001, ProvinceID: cs[0].ProvinceID, FarsiName: "شهر تازه", EnglishName: "New Town", Slag: "new-town",
		Lat: 35, Long: 51, Aliases: []string{}}
	if _, err := st.SeedReference(ctx, nil, []store.City{added}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := srv.cityBySlag(ctx, "new-town")
	if err != nil || got.ID != added.ID {
		t.Fatalf("a city added after the reference data was read: got %+v (%v)", got, err)
	}
}
