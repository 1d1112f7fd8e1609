package cmd_test

import (
	"bytes"
	"strings"
	"testing"

	"kardan/media/s3server"
)

// TestReplicasShareTheBucket runs two replicas on one PostgreSQL database and one bucket, each
// with its own data directory: an image uploaded through A is served by B, byte for byte, and
// nothing of it is in either data directory.
func TestReplicasShareTheBucket(t *testing.T) {
	db := postgresDB(t, "the replicas test did not run")
	srv := s3server.Start(t)
	srv.MakeBucket("kardan")
	srv.Env(t)
	uploads := srv.URL("kardan")
	a := openReplica(t, t.TempDir(), db, uploads, "")
	defer a.close()
	b := openReplica(t, t.TempDir(), db, uploads, "")
	defer b.close()

	token := a.signIn("09121234567")
	code, env := a.upload(token, noisePNG(80, 60, 9), "fa")
	if code != 200 {
		t.Fatalf("upload through A: %d %v", code, env)
	}
	addr := env["payload"].(map[string]any)["address"].(string)
	resA, bodyA := get(t, a.app.URL()+addr)
	resB, bodyB := get(t, b.app.URL()+addr)
	if resA.StatusCode != 200 || resB.StatusCode != 200 || len(bodyB) == 0 || !bytes.Equal(bodyA, bodyB) {
		t.Fatalf("A %d (%d bytes), B %d (%d bytes)", resA.StatusCode, len(bodyA), resB.StatusCode, len(bodyB))
	}
	// B's session table is A's: the token A gave works on B.
	code, env = b.upload(token, noisePNG(80, 60, 10), "en")
	if code != 200 || !strings.HasPrefix(env["payload"].(map[string]any)["address"].(string), "/uploads/") {
		t.Fatalf("upload through B with A's token: %d %v", code, env)
	}
}
