package search

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// rebuildMemoryLimit answers the soft memory limit (runtime/debug.SetMemoryLimit) a rebuild runs
// under, given the one in force: half the memory of the machine, or of the container the process
// runs in when that is smaller, unless the operator set a lower one (GOMEMLIMIT). A rebuild
// collects garbage rarely (GOGC 400) and its heap then grew to 3 GB at 100,000 profiles and 4 GB
// at a million, whatever the machine: on a small one, `kardan reindex` or a start-up rebuild was
// killed for want of memory. Under the limit the collector runs more often as the heap nears it,
// and not at all more on a machine with the memory to spare.
func rebuildMemoryLimit(current int64) int64 {
	total := machineMemory("/")
	if total <= 0 {
		return current
	}
	return min(current, total/2)
}

// machineMemory answers the bytes of memory the process may use: the machine's (MemTotal), or
// its memory cgroup's limit (version 1 or 2) when lower; 0 when none can be read. root is the
// file system's root, for a test.
func machineMemory(root string) int64 {
	var total int64
	if b, err := os.ReadFile(filepath.Join(root, "proc/meminfo")); err == nil {
		total = memTotal(b)
	}
	b, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return total
	}
	for _, limit := range cgroupLimitFiles(b) {
		l, err := os.ReadFile(filepath.Join(root, limit))
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(l)), 10, 64)
		if err == nil && n > 0 && (total == 0 || n < total) {
			total = n // "max" (version 2's no limit) does not parse and is left out
		}
	}
	return total
}

// memTotal reads MemTotal from /proc/meminfo's text, in bytes; 0 when it is not there.
func memTotal(meminfo []byte) int64 {
	s := bufio.NewScanner(bytes.NewReader(meminfo))
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

// cgroupLimitFiles answers the files that may hold the process's memory limit, from
// /proc/self/cgroup's text: version 1's memory controller's limit_in_bytes, version 2's
// memory.max, where the hierarchies are usually mounted.
func cgroupLimitFiles(cgroup []byte) []string {
	var out []string
	s := bufio.NewScanner(bytes.NewReader(cgroup))
	for s.Scan() {
		id, rest, ok := strings.Cut(s.Text(), ":")
		if !ok {
			continue
		}
		controllers, path, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		switch {
		case id == "0" && controllers == "":
			out = append(out, filepath.Join("sys/fs/cgroup", path, "memory.max"),
				filepath.Join("sys/fs/cgroup/unified", path, "memory.max"))
		case slices.Contains(strings.Split(controllers, ","), "memory"):
			out = append(out, filepath.Join("sys/fs/cgroup/memory", path, "memory.limit_in_bytes"))
		}
	}
	return out
}
