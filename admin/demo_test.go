package admin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"kardan/media"
	"kardan/store"
)

// The demo data a first evaluator looks at: no review from the future, a "round the clock" name
// only with round-the-clock hours, a week and prices that fit the trade, names that carry their
// own city, and a picture on every profile, one per trade, owned by the profile's owner.
func TestSeedDemoBelievable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := SeedReference(ctx, st); err != nil {
		t.Fatal(err)
	}
	uploads, err := media.NewLocalDir(filepath.Join(dir, "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	n, err := SeedDemo(ctx, st, DemoOptions{Profiles: 1500, PasswordHash: "x", Seed: 7, Now: now,
		Media: media.NewProcessor(uploads, media.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	if n.Profiles != 1500 || n.Comments == 0 || n.Pictures < 100 {
		t.Fatalf("counts %+v", n)
	}

	var future int
	if err := st.DB().QueryRow(`SELECT COUNT(*) FROM comments WHERE create_at > ?`, now.Unix()).Scan(&future); err != nil {
		t.Fatal(err)
	}
	if future > 0 {
		t.Errorf("%d reviews dated after now", future)
	}
	var early int
	st.DB().QueryRow(`SELECT COUNT(*) FROM comments c JOIN profiles p ON p.id = c.profile_id WHERE c.create_at < p.create_at`).Scan(&early)
	if early > 0 {
		t.Errorf("%d reviews older than their profile", early)
	}

	rows, err := st.DB().Query(`SELECT p.profile_name, p.hours_of_work, p.profile_image, p.user_id, p.services, c.farsi_name,
		f.slag, (SELECT COUNT(*) FROM uploads u WHERE u.user_id = p.user_id AND u.address = p.profile_image)
		FROM profiles p JOIN cities c ON c.id = p.city_id JOIN work_categories f ON f.id = p.range_worker_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	pictures := map[string]bool{}
	allDay, shown := 0, 0
	for rows.Next() {
		var name, hoursText, image, servicesText, city, field string
		var owner int64
		var owned int
		if err := rows.Scan(&name, &hoursText, &image, &owner, &servicesText, &city, &field, &owned); err != nil {
			t.Fatal(err)
		}
		var hours store.Hours
		if err := json.Unmarshal([]byte(hoursText), &hours); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(name, "شبانه‌روزی") || strings.Contains(name, "۲۴ ساعته") {
			allDay++
			for _, d := range store.Weekdays {
				if !hours[d].Boarding {
					t.Errorf("%q says round the clock but %s is %+v", name, d, hours[d])
					break
				}
			}
		}
		if image == "" || owned != 1 {
			t.Errorf("%q: picture %q, owned by its owner: %v", name, image, owned == 1)
		} else if !pictures[image] {
			pictures[image] = true
			if _, err := os.Stat(filepath.Join(dir, "uploads", strings.TrimPrefix(image, "/uploads/"))); err != nil {
				t.Errorf("picture %s not stored: %v", image, err)
			}
		}
		var services []store.Service
		json.Unmarshal([]byte(servicesText), &services)
		switch field {
		case "government-offices", "banks", "religious-cultural":
			for _, sv := range services {
				if sv.Price != 0 {
					t.Errorf("%q (%s) charges %d for %q", name, field, sv.Price, sv.Title)
				}
			}
			if hours["friday"].Time != nil && len(hours["friday"].Time) > 0 && field != "religious-cultural" {
				t.Errorf("%q (%s) opens on Friday", name, field)
			}
		case "hotels-accommodation":
			if !strings.Contains(name, city) {
				t.Errorf("hotel %q does not name its city %s", name, city)
			}
			shown++
		case "food":
			if hours["friday"].Closed {
				t.Errorf("restaurant %q closes on Friday", name)
			}
		}
		for _, other := range []string{"تهرانی", "شیرازی", "اصفهانی", "تبریزی"} {
			if strings.Contains(name, other) {
				t.Errorf("%q in %s carries another city's name", name, city)
			}
		}
	}
	if allDay == 0 || shown == 0 {
		t.Errorf("%d round-the-clock names, %d hotels: the sample is too small to check", allDay, shown)
	}
	if len(pictures) != n.Pictures {
		t.Errorf("%d distinct pictures on profiles, %d drawn: one per trade", len(pictures), n.Pictures)
	}
}

// The demo data reads like a real directory (issue #25): owners' names from a long tail, each
// business describing itself in its own words, so most words are rare and a query matches a
// small share of the profiles; and the same seed makes the same data.
func TestSeedDemoVocabulary(t *testing.T) {
	ctx := context.Background()
	seed := func() (*store.Store, []string) {
		st, err := store.Open(ctx, filepath.Join(t.TempDir(), "kardan.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		if _, err := SeedReference(ctx, st); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		if _, err := SeedDemo(ctx, st, DemoOptions{Profiles: 1000, PasswordHash: "x", Seed: 3, Now: now}); err != nil {
			t.Fatal(err)
		}
		rows, err := st.DB().Query(`SELECT p.profile_name || ' | ' || p.descriotion || ' | ' || p.services || ' | ' || u.name
			FROM profiles p JOIN users u ON u.id = p.user_id ORDER BY p.id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return st, out
	}
	_, a := seed()
	_, b := seed()
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatal("the same seed made different data")
	}
	words := map[string]int{} // in how many profiles
	descriptions := map[string]bool{}
	surnames := map[string]bool{}
	for _, row := range a {
		parts := strings.Split(row, " | ")
		descriptions[parts[1]] = true
		if f := strings.Fields(parts[len(parts)-1]); len(f) > 1 {
			surnames[f[len(f)-1]] = true
		}
		seen := map[string]bool{}
		for _, w := range strings.FieldsFunc(row, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if !seen[w] {
				seen[w] = true
				words[w]++
			}
		}
	}
	if len(surnames) < 250 {
		t.Errorf("%d distinct surnames among 1000 owners, want 250 or more", len(surnames))
	}
	if len(descriptions) < 950 {
		t.Errorf("%d distinct descriptions among 1000 profiles, want nearly all different", len(descriptions))
	}
	rare := 0
	for _, n := range words {
		if n <= 10 { // in 1% of the profiles or fewer
			rare++
		}
	}
	if len(words) < 1500 || rare*10 < len(words)*7 {
		t.Errorf("%d distinct words, %d of them in 1%% of the profiles or fewer: want 1,500 or more, most of them rare", len(words), rare)
	}
	t.Logf("%d distinct words (%d rare), %d surnames, %d descriptions", len(words), rare, len(surnames), len(descriptions))
}

// A demo loads in batches, each scored with the mean of the scores loaded before it; the seed
// ends with the daily refresh, so a server's first maintenance (the same refresh, a minute after
// it starts) finds no level_score to rewrite and reindex. A second demo on top of the first, whose
// scores move the mean again, ends settled too.
func TestSeedDemoSettlesLevelScores(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := SeedReference(ctx, st); err != nil {
		t.Fatal(err)
	}
	for i, seed := range []uint64{3, 4} {
		n, err := SeedDemo(ctx, st, DemoOptions{Profiles: 800, PasswordHash: "x", Seed: seed, Batch: 200})
		if err != nil {
			t.Fatal(err)
		}
		if n.Profiles != 800 || n.Comments == 0 {
			t.Fatalf("demo %d: counts %+v", i+1, n)
		}
		changed, err := st.RefreshLevelScores(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if changed != 0 {
			t.Errorf("demo %d: the refresh after seeding rewrote %d level scores, want 0", i+1, changed)
		}
	}
	var profiles int
	if err := st.DB().QueryRow(`SELECT COUNT(*) FROM profiles`).Scan(&profiles); err != nil || profiles != 1600 {
		t.Fatalf("profiles %d (%v), want 1600", profiles, err)
	}
}
