//go:build linux

package search_test

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID, which the syscall package does not name.
const clockThreadCPUTime = 3

// threadCPU answers the processor time the calling OS thread has used, to the nanosecond (the
// scheduler's own account; getrusage counts in clock ticks of 4 ms). A benchmark locked to its
// thread measures with it what a query costs even on a loaded machine, where wall time also
// counts the time the thread waited for a core.
func threadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// lockThread keeps the benchmark's goroutine on one OS thread, so threadCPU reads its time.
func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
