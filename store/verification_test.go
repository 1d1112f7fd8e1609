package store_test

import (
	"context"
	"testing"

	"kardan/store"
	"kardan/store/storetest"
)

// TestVerifiedBadgeFollowsHeldEdits: with moderation before publishing, an owner's rename waits
// for review and the badge stays (the public still sees the verified name); accepting the edit
// publishes the new name and drops the badge in the same transaction.
func TestVerifiedBadgeFollowsHeldEdits(t *testing.T) {
	ctx := context.Background()
	st := storetest.Seeded(t)
	withClock(st)
	owner := &store.User{NumberPhone: "09120000051", Name: "مالک", PasswordHash: "x", Role: store.RoleUser}
	admin := &store.User{NumberPhone: "09120000052", Name: "مدیر", PasswordHash: "x", Role: store.RoleAdmin}
	for _, u := range []*store.User{owner, admin} {
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	in := &store.ProfileInput{ProfileName: "نانوایی سنگک", ProvinceID: 1, CityID: 1, RangeWorker: 1, CategoryList: []int64{101},
		SocialNetwork: []store.SocialLink{{Type: "mobile", Link: "09351230051"}}}
	p, err := st.CreateProfile(ctx, owner.ID, in, false)
	if err != nil {
		t.Fatal(err)
	}
	hash := func(phone string) []byte { return []byte("code-for-" + phone) }
	phone, _, err := st.StartVerification(ctx, admin, p.ID, "", store.SignupCode{ClientIP: "10.0.0.1"}, policy, hash)
	if err != nil || phone != "09351230051" {
		t.Fatalf("start: %q %v", phone, err)
	}
	if err := st.ConfirmVerification(ctx, admin, p.ID, hash, policy); store.ErrorCode(err) != store.ENotFound {
		t.Fatalf("an admin who is not the owner confirms: %v", err)
	}
	if err := st.ConfirmVerification(ctx, owner, p.ID, hash, policy); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SetVerified(ctx, admin, p.ID, true, "called"); err != nil {
		t.Fatal(err)
	}

	renamed := *in
	renamed.ProfileName = "نانوایی سنگک بربری"
	held, err := st.UpdateProfile(ctx, owner, p.ID, &renamed, true)
	if err != nil {
		t.Fatal(err)
	}
	if held.VerifiedAt == nil || held.ProfileName != in.ProfileName {
		t.Fatalf("a held rename touched the public profile: %+v", held)
	}
	after, err := st.SetProfileStatus(ctx, &admin.ID, p.ID, store.StatusAccepted, "")
	if err != nil {
		t.Fatal(err)
	}
	if after.ProfileName != renamed.ProfileName || after.VerifiedAt != nil {
		t.Fatalf("accepted rename kept the badge: %q %v", after.ProfileName, after.VerifiedAt)
	}
}
