package harness

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// TestWouldGiveUp: the rules of giving up kept over marks, batch by batch,
// are those one run of the adapter keeps, sent the same batches and
// crashing on the requests marked: it gives up on something (Ruled) when
// WouldGiveUp says so. Each batch is a string, x for a request that
// crashes the adapter, . for one it answers. An adapter that buffers its
// answers (crash) loses some when it dies, and a request answered when
// sent again is a failure the marks do not show (how many depends on
// how the answers were buffered): WouldGiveUp errs on the side of yes
// then, never of no.
func TestWouldGiveUp(t *testing.T) {
	cfg := Config{MaxRestarts: 3, MaxFailures: 5}
	for _, tt := range []struct {
		mode    string
		batches []string
		want    bool // with crash-flushing
	}{
		{"crash-flushing", []string{"xx.xx."}, false},
		{"crash-flushing", []string{"xxx."}, true}, // the rest of the batch
		{"crash-flushing", []string{"xx", "x."}, false},
		{"crash-flushing", []string{"x.x.", "x.x.", "x."}, true}, // 5 failures: for good
		{"crash-flushing", []string{"x.x.", ".x.."}, false},
		{"crash-flushing", []string{"x" + strings.Repeat(".", 93), "xx.xx."}, true},
		{"crash-flushing", []string{"x" + strings.Repeat(".", 98), "xx.xx."}, false}, // the first left the last 100
		{"crash", []string{"x.x.", ".x.."}, false},
		{"crash", []string{"xx.xx."}, false},
		{"crash", []string{"xx.x", "xx.."}, false},
	} {
		t.Run(tt.mode+"/"+strings.Join(tt.batches, "|"), func(t *testing.T) {
			a := start(t, tt.mode, cfg)
			var marks [][]bool
			n := 0
			for _, b := range tt.batches {
				var cs []impl.Case
				var m []bool
				for _, c := range b {
					args := fmt.Sprintf(`{"i":%d}`, n)
					if c == 'x' {
						args = fmt.Sprintf(`{"i":%d,"trigger":true}`, n)
					}
					n++
					cs = append(cs, impl.Case{Schema: []byte(`{}`), Args: []byte(args)})
					m = append(m, c == 'x')
				}
				a.RunBatch(context.Background(), cs)
				marks = append(marks, m)
			}
			p := &Pool{cfg: a.cfg, adapters: []*Adapter{a}}
			would, ruled := p.WouldGiveUp(marks), p.Ruled()
			if tt.mode == "crash-flushing" && would != tt.want {
				t.Errorf("WouldGiveUp = %v, want %v", would, tt.want)
			}
			if ruled && !would || tt.mode == "crash-flushing" && ruled != would {
				t.Errorf("one run gave up on something: %v, WouldGiveUp %v (events %+v)", ruled, would, a.Events())
			}
		})
	}
	// A batch whose last requests fail in a row left nothing to give up:
	// WouldGiveUp counts it given up on all the same.
	p := &Pool{cfg: cfg}
	if !p.WouldGiveUp([][]bool{{false, true, true, true}}) {
		t.Error("three failures in a row at the end of a batch: not counted")
	}
}
