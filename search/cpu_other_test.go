//go:build !linux

package search_test

import "time"

// threadCPU is not measured outside Linux.
func threadCPU() (time.Duration, bool) { return 0, false }

func lockThread() func() { return func() {} }
