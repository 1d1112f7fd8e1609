package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// procs starts the benchmark's child processes and makes sure none outlives the run: each runs
// in its own process group (so stopping it stops whatever it started), is killed by the kernel
// if the benchmark itself dies (Pdeathsig), and stopAll stops whatever is still running.
type procs struct {
	mu      sync.Mutex
	running map[*proc]bool
}

// proc is one child process.
type proc struct {
	name    string
	cmd     *exec.Cmd
	stopSig syscall.Signal
	done    chan struct{}
	err     error
	log     *os.File
}

// procSpec describes a child to start.
type procSpec struct {
	Name string
	Argv []string
	Env  []string // added to the benchmark's own environment
	Dir  string
	Log  string // file that receives stdout and stderr
	// Cred runs the child as another user (PostgreSQL refuses to run as root).
	Cred *syscall.Credential
	// StopSig asks the child to stop (SIGTERM when zero); SIGKILL follows after a timeout.
	StopSig syscall.Signal
}

func newProcs() *procs { return &procs{running: map[*proc]bool{}} }

func (ps *procs) start(s procSpec) (*proc, error) {
	logf, err := os.OpenFile(s.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", s.Name, err)
	}
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Credential: s.Cred}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", s.Name, err)
	}
	p := &proc{name: s.Name, cmd: cmd, stopSig: s.StopSig, done: make(chan struct{}), log: logf}
	if p.stopSig == 0 {
		p.stopSig = syscall.SIGTERM
	}
	ps.mu.Lock()
	ps.running[p] = true
	ps.mu.Unlock()
	go func() {
		p.err = cmd.Wait()
		logf.Close()
		ps.mu.Lock()
		delete(ps.running, p)
		ps.mu.Unlock()
		close(p.done)
	}()
	slog.Info("started", "name", s.Name, "pid", cmd.Process.Pid)
	return p, nil
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

// exited reports whether the process has ended.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop asks the process group to stop, then kills it after timeout.
func (p *proc) stop(timeout time.Duration) {
	if p.exited() {
		return
	}
	pgid := p.pid() // Setpgid made the child the leader of its own group
	syscall.Kill(-pgid, p.stopSig)
	select {
	case <-p.done:
	case <-time.After(timeout):
		slog.Warn("did not stop in time: killing", "name", p.name, "pid", pgid)
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
	// Whatever the leader left behind in its group goes too.
	syscall.Kill(-pgid, syscall.SIGKILL)
	slog.Info("stopped", "name", p.name, "pid", pgid)
}

// stopAll stops every child still running.
func (ps *procs) stopAll() {
	ps.mu.Lock()
	var all []*proc
	for p := range ps.running {
		all = append(all, p)
	}
	ps.mu.Unlock()
	for _, p := range all {
		p.stop(15 * time.Second)
	}
}

// run runs a command to its end, its output going to logPath, and answers how long it took.
func run(ctx context.Context, logPath string, cred *syscall.Credential, argv ...string) (time.Duration, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return 0, err
	}
	defer logf.Close()
	fmt.Fprintf(logf, "\n$ %s\n", strings.Join(argv, " "))
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Credential: cred}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s: %w (see %s)", filepath.Base(argv[0]), err, logPath)
	}
	return time.Since(start), nil
}

// freePort answers a TCP port on the loopback interface that nothing listens on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitHTTP waits until url answers 200 (and a Kardan has its search index), the process exits,
// or timeout passes.
func waitHTTP(ctx context.Context, url string, p *proc, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if p != nil && p.exited() {
			return fmt.Errorf("%s exited before answering: %v", p.name, p.err)
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			// A Kardan building its search index answers at once, its searches 503 until done.
			if resp.StatusCode == http.StatusOK && !bytes.Contains(body, []byte(`"search":"building"`)) {
				return nil
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("%s did not answer within %s", url, timeout)
}

// memory is a process's resident memory in MiB: now and at its peak, and what is resident now
// split into its own memory (anonymous: the heap and stacks) and mapped files. Kardan maps its
// search index's segments (and SQLite may map its database): those pages count as resident but
// are the kernel's page cache, which it drops under memory pressure, unlike the heap.
type memory struct {
	RSSMiB  float64 `json:"rss_mib"`
	PeakMiB float64 `json:"peak_mib"`
	AnonMiB float64 `json:"anon_mib,omitempty"`
	FileMiB float64 `json:"file_mib,omitempty"`
}

// memoryOf reads VmRSS, VmHWM, RssAnon and RssFile from /proc/<pid>/status.
func memoryOf(pid int) (memory, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return memory{}, err
	}
	defer f.Close()
	var m memory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch k {
		case "VmRSS":
			m.RSSMiB = kibField(v) / 1024
		case "VmHWM":
			m.PeakMiB = kibField(v) / 1024
		case "RssAnon":
			m.AnonMiB = kibField(v) / 1024
		case "RssFile":
			m.FileMiB = kibField(v) / 1024
		}
	}
	return m, sc.Err()
}

func kibField(v string) float64 {
	f, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
	return f
}

// treePSSMiB sums the proportional set size of root and all its descendants: PostgreSQL runs a
// process per connection over shared memory, and PSS counts each shared page once overall.
func treePSSMiB(root int) (float64, error) {
	parents := map[int]int{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// The command name is in parentheses and may hold spaces: fields follow the last ')'.
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 {
			f := strings.Fields(s[i+1:])
			if len(f) > 1 {
				ppid, _ := strconv.Atoi(f[1])
				parents[pid] = ppid
			}
		}
	}
	inTree := func(pid int) bool {
		for i := 0; i < 64 && pid > 1; i++ {
			if pid == root {
				return true
			}
			pid = parents[pid]
		}
		return false
	}
	var total float64
	for pid := range parents {
		if !inTree(pid) {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Pss:"); ok {
				total += kibField(v) / 1024
			}
		}
	}
	if total == 0 {
		return 0, errors.New("no memory figures for the process tree")
	}
	return total, nil
}

// split says how the memory resident when it was read divides: "N MiB its own + M MiB mapped
// index and database files", or "" for a run from before it was read.
func (m memory) split() string {
	if m.AnonMiB == 0 && m.FileMiB == 0 {
		return ""
	}
	return fmt.Sprintf("%.0f MiB its own + %.0f MiB mapped index and database files", m.AnonMiB, m.FileMiB)
}
