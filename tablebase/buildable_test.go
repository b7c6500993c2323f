package tablebase

import (
	"context"
	"strings"
	"testing"

	"github.com/mancala-solver/mancala/position"
)

// oware-own's repetitions give each player their own row, which retrograde
// analysis (endless play worth 0) does not value: no tablebase is built.
func TestOwnRowsNotBuilt(t *testing.T) {
	v, err := position.Lookup("oware-own")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BuildMemory(context.Background(), v, 2, 1); err == nil || !strings.Contains(err.Error(), "oware-own") {
		t.Errorf("BuildMemory: %v, want an error naming oware-own", err)
	}
	if _, err := Build(context.Background(), t.TempDir(), v, BuildOptions{MaxSeeds: 2}); err == nil {
		t.Error("Build: no error")
	}
}
