package tablebase

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCgroupMemLimit lays out cgroup file systems in a temporary directory
// and checks that the lowest limit on the process's cgroup path wins: a
// parent's limit binds a child without one, v1 and v2 alike, "max" and v1's
// no-limit value leave none, and a namespaced "/" reads the root's file.
func TestCgroupMemLimit(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("memory/memory.limit_in_bytes", "9223372036854771712")
	write("memory/jobs/memory.limit_in_bytes", "12884901888")
	write("memory/jobs/a30/memory.limit_in_bytes", "9223372036854771712")
	write("system.slice/memory.max", "max")
	write("system.slice/run-1.scope/memory.max", "8589934592")
	write("unified/user.slice/memory.max", "4294967296")
	write("memory.max", "17179869184")
	cases := []struct {
		name, self string
		want       int64
	}{
		{"v1 limit on a parent", "4:memory:/jobs/a30\n1:cpu:/\n", 12 << 30},
		{"v1 none", "4:memory:/other\n", 0},
		{"v1 among other controllers", "9:cpu,memory:/jobs\n", 12 << 30},
		{"v2 scope", "0::/system.slice/run-1.scope\n", 8 << 30},
		{"v2 max on the way up", "0::/system.slice\n", 16 << 30},
		{"hybrid v2 under unified", "0::/user.slice/session\n", 4 << 30},
		{"namespaced v2", "0::/\n", 16 << 30},
		{"both, lowest wins", "4:memory:/jobs\n0::/system.slice/run-1.scope\n", 8 << 30},
		{"no cgroup file", "", 0},
	}
	for _, c := range cases {
		if got := cgroupMemLimit(root, c.self); got != c.want {
			t.Errorf("%s: cgroupMemLimit = %d, want %d", c.name, got, c.want)
		}
	}
}
