package storetest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver for the harness's own admin queries

	"kardan/admin"
	"kardan/store"
)

// EngineEnv names the environment variable that chooses the engine the suites run on:
// "postgres" runs them on a private PostgreSQL cluster this package starts; anything else on
// SQLite. `make test` runs the store and API suites once with each.
const EngineEnv = "KARDAN_TEST_DB"

// Postgres reports whether the tests run on PostgreSQL.
func Postgres() bool { return os.Getenv(EngineEnv) == "postgres" }

// Cluster is a private PostgreSQL server started for one test binary: its own data directory
// in a temporary directory, a free loopback port, killed with the binary (parent-death signal).
type Cluster struct {
	Bin  string // the version's bin directory
	Dir  string // holds the data directory and the socket
	Port int
	cmd  *exec.Cmd
	cred *syscall.Credential
}

// URL answers a connection URL to database db on the cluster.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://kardan@127.0.0.1:%d/%s?sslmode=disable", c.Port, db)
}

var (
	clusterOnce sync.Once
	cluster     *Cluster
	clusterErr  error
	dbSeq       atomic.Int64
)

// pgCluster answers the binary's cluster, starting it and its two template databases (migrated;
// migrated and seeded) on first use. Without PostgreSQL's binaries it skips the test with a loud
// message, or fails it when CI=true: CI must run both engines.
func pgCluster(tb testing.TB) *Cluster {
	tb.Helper()
	clusterOnce.Do(func() { cluster, clusterErr = startCluster() })
	if clusterErr != nil {
		if errors.Is(clusterErr, errNoPostgres) && os.Getenv("CI") != "true" {
			tb.Skipf("\n!!!!! %s=postgres but PostgreSQL is not installed (apt-get install -y postgresql): "+
				"the PostgreSQL half of this suite did NOT run !!!!!", EngineEnv)
		}
		tb.Fatalf("postgres test cluster: %v", clusterErr)
	}
	return cluster
}

var errNoPostgres = errors.New("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres)")

// FindPostgres answers the bin directory of the newest PostgreSQL installed.
func FindPostgres() (string, error) {
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres")
	if len(matches) == 0 {
		return "", errNoPostgres
	}
	sort.Slice(matches, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(matches[i]))))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(matches[j]))))
		return vi > vj
	})
	return filepath.Dir(matches[0]), nil
}

// StartCluster starts a new private cluster (for tests that need their own, such as the
// cluster test). It stops when Stop is called or when the test binary dies.
func StartCluster() (*Cluster, error) {
	bin, err := FindPostgres()
	if err != nil {
		return nil, err
	}
	reapStale()
	dir, err := os.MkdirTemp("", "kardan-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{Bin: bin, Dir: dir}
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	for _, d := range []string{data, sock} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	// PostgreSQL refuses to run as root: as root it runs as the postgres user the package made.
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		for _, d := range []string{dir, data, sock} {
			if err := os.Chown(d, uid, gid); err != nil {
				return nil, err
			}
		}
		for d := filepath.Dir(dir); d != "/" && d != "."; d = filepath.Dir(d) {
			if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o001 == 0 {
				os.Chmod(d, fi.Mode().Perm()|0o011)
			}
		}
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "kardan", "--auth=trust",
		"--encoding=UTF8", "--locale=C.UTF-8", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	if c.Port, err = freePort(); err != nil {
		return nil, err
	}
	if err := c.start(data, sock); err != nil {
		return nil, err
	}
	return c, nil
}

// start runs the server for tests: durability off (a test's data dies with it), enough
// connections for parallel tests each holding two pools.
func (c *Cluster) start(data, sock string) error {
	started := make(chan error, 1)
	// The parent-death signal fires when the thread that started the child ends, so a thread
	// locked for the life of the binary starts it: the server dies with the tests, however they end.
	go func() {
		runtime.LockOSThread()
		cmd := exec.Command(filepath.Join(c.Bin, "postgres"), "-D", data, "-p", strconv.Itoa(c.Port), "-k", sock,
			"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
			"-c", "full_page_writes=off", "-c", "max_connections=400", "-c", "shared_buffers=64MB",
			"-c", "jit=off", "-c", "log_min_messages=fatal")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred, Pdeathsig: syscall.SIGKILL, Setpgid: true}
		logf, _ := os.Create(filepath.Join(c.Dir, "postgres.log"))
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		c.cmd = cmd
		started <- nil
		cmd.Wait()
		select {} // keep the thread: its end would kill a server still in use
	}()
	if err := <-started; err != nil {
		return err
	}
	db, err := sql.Open("pgx", c.URL("postgres"))
	if err != nil {
		return err
	}
	defer db.Close()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if err = db.Ping(); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(c.Dir, "postgres.log"))
			return fmt.Errorf("postgres did not start: %v: %s", err, log)
		}
	}
}

// Stop ends the server and removes its directory.
func (c *Cluster) Stop() {
	if c.cmd != nil && c.cmd.Process != nil {
		c.cmd.Process.Signal(syscall.SIGQUIT) // immediate shutdown
		for i := 0; i < 100 && syscall.Kill(c.cmd.Process.Pid, 0) == nil; i++ {
			time.Sleep(20 * time.Millisecond)
		}
	}
	os.RemoveAll(c.Dir)
}

// Exec runs an administrative statement on the cluster's postgres database.
func (c *Cluster) Exec(q string) error {
	db, err := sql.Open("pgx", c.URL("postgres"))
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(q)
	return err
}

// CreateDB creates a new empty database and answers its name.
func (c *Cluster) CreateDB(template string) (string, error) {
	name := fmt.Sprintf("t%d_%d", os.Getpid(), dbSeq.Add(1))
	q := "CREATE DATABASE " + name
	if template != "" {
		q += " TEMPLATE " + template
	}
	err := c.Exec(q)
	if err != nil {
		db, _ := sql.Open("pgx", c.URL("postgres"))
		defer db.Close()
		rows, _ := db.Query(`SELECT datname, pid, state, query, application_name FROM pg_stat_activity`)
		for rows != nil && rows.Next() {
			var a, b, c2, d, e sql.NullString
			rows.Scan(&a, &b, &c2, &d, &e)
			err = fmt.Errorf("%w; [%s %s %s %s %s]", err, a.String, b.String, c2.String, d.String, e.String)
		}
	}
	return name, err
}

// reapStale removes the directories of clusters whose test binary died without cleaning up
// (their server died with it).
func reapStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "kardan-pg-*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "data", "postmaster.pid"))
		if err != nil {
			if fi, err := os.Stat(d); err == nil && time.Since(fi.ModTime()) > time.Hour {
				os.RemoveAll(d)
			}
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
		if pid > 0 && syscall.Kill(pid, 0) != nil {
			os.RemoveAll(d)
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// startCluster starts the binary's shared cluster and prepares its templates: kardan_empty
// (migrated) and kardan_seeded (migrated and seeded with the reference data), so a test's
// database is a copy made in milliseconds rather than a migration and a seed.
func startCluster() (*Cluster, error) {
	c, err := StartCluster()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	for _, t := range []struct {
		name string
		seed bool
	}{{"kardan_empty", false}, {"kardan_seeded", true}} {
		if err := c.Exec("CREATE DATABASE " + t.name); err != nil {
			return nil, err
		}
		st, err := store.Open(ctx, c.URL(t.name))
		if err != nil {
			return nil, fmt.Errorf("migrate template %s: %w", t.name, err)
		}
		if t.seed {
			if _, err := admin.SeedReference(ctx, st); err != nil {
				st.Close()
				return nil, fmt.Errorf("seed template: %w", err)
			}
		}
		st.Close()
	}
	return c, nil
}

// openPostgres opens a store on a fresh copy of a template database, dropped when the test ends.
func openPostgres(tb testing.TB, template string) *store.Store {
	tb.Helper()
	c := pgCluster(tb)
	name, err := c.CreateDB(template)
	if err != nil {
		tb.Fatalf("create test database: %v", err)
	}
	st, err := store.Open(context.Background(), c.URL(name))
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	dir := tb.TempDir()
	dirs.Store(st, dir)
	tb.Cleanup(func() {
		st.Close()
		dirs.Delete(st)
		c.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
	})
	return st
}
