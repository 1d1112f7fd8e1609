package search

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestMachineMemory reads the memory a process may use from file trees laid out as Linux lays
// them out: the machine's alone, under a version 1 memory cgroup with and without a limit, and
// under a version 2 one mounted at either place.
func TestMachineMemory(t *testing.T) {
	const meminfo = "MemTotal:        2048000 kB\nMemFree:          100000 kB\n"
	const machine = 2048000 * 1024
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"nothing readable", nil, 0},
		{"the machine alone", map[string]string{"proc/meminfo": meminfo}, machine},
		{"a version 1 cgroup below the machine", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "9:name=systemd:/\n4:memory:/kardan\n0::/\n",
			"sys/fs/cgroup/memory/kardan/memory.limit_in_bytes": "1073741824\n",
		}, 1 << 30},
		{"a version 1 cgroup with no limit", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "4:memory,hugetlb:/kardan\n",
			"sys/fs/cgroup/memory/kardan/memory.limit_in_bytes": "9223372036854771712\n",
		}, machine},
		{"a version 2 cgroup", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "0::/system.slice/kardan.service\n",
			"sys/fs/cgroup/system.slice/kardan.service/memory.max": "536870912\n",
		}, 512 << 20},
		{"a version 2 cgroup beside version 1", map[string]string{
			"proc/meminfo":                         meminfo,
			"proc/self/cgroup":                     "4:memory:/\n0::/box\n",
			"sys/fs/cgroup/unified/box/memory.max": "805306368\n",
		}, 768 << 20},
		{"a version 2 cgroup with no limit", map[string]string{
			"proc/meminfo":             meminfo,
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "max\n",
		}, machine},
		{"a limit and no meminfo", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "536870912\n",
		}, 512 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range tc.files {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := machineMemory(root); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}

// TestRebuildMemoryLimit checks the limit on this machine: half of what it has, and never above
// a lower limit the operator set.
func TestRebuildMemoryLimit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the machine's memory is read from Linux's /proc")
	}
	total := machineMemory("/")
	if total <= 0 {
		t.Fatal("no memory read from /proc/meminfo")
	}
	if got := rebuildMemoryLimit(math.MaxInt64); got != total/2 {
		t.Errorf("with no limit set: got %d, want %d", got, total/2)
	}
	if got := rebuildMemoryLimit(100 << 20); got != 100<<20 {
		t.Errorf("under GOMEMLIMIT=100MiB: got %d", got)
	}
}

// TestRebuildBatchFor checks the batch a rebuild uses under a limit: the full one where memory
// is plenty, smaller under a small limit, never below 500, and never above a test's.
func TestRebuildBatchFor(t *testing.T) {
	for _, tc := range []struct {
		budget int64
		want   int
	}{
		{math.MaxInt64, rebuildBatch},
		{12 << 30, rebuildBatch},
		{2 << 30, rebuildBatch},
		{768 << 20, 3072},
		{512 << 20, 2048},
		{64 << 20, 500},
		{0, 500},
	} {
		if got := rebuildBatchFor(tc.budget); got != tc.want {
			t.Errorf("under %d bytes: got %d, want %d", tc.budget, got, tc.want)
		}
	}
}
