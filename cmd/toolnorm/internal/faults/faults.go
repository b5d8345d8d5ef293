// Package faults makes an adapter misbehave on purpose, for the tests of
// the harness and of toolnorm check: toolnorm serve --fault KIND/N wraps
// its standard output in a Writer that, on every N-th answer, breaks the
// protocol as KIND says. Faults count the answers of one run of the
// adapter, so a restart starts the count again, as a real bug's would.
package faults

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A Fault is one misbehaviour, on every Every-th answer.
type Fault struct {
	Kind  string // one of Kinds
	Every int
}

// Kinds are the faults, each with what it does to the answer.
var Kinds = map[string]string{
	"not-json": "writes a line that is not JSON instead",
	"wrong-id": "writes the answer with another id",
	"exit":     "exits after writing it",
	"huge":     "writes a 64 MB line instead",
	"sleep":    "waits 30 seconds before writing it",
	"crash":    "exits before writing it, with status 3",
	// For the verdict on an adapter that answers little (docs/verdicts.md).
	"unsupported": "answers unsupported instead",
	// For the cost of showing large answers: within the limit of an
	// answer line (1 MiB and 8 times the request), each character shown
	// escaped (\u00a0, 6 bytes for 2).
	"large": "answers 1,000,000 bytes of U+00A0 (no-break space) instead",
}

// Parse reads KIND/N, such as not-json/5.
func Parse(s string) (Fault, error) {
	kind, n, ok := strings.Cut(s, "/")
	every, err := strconv.Atoi(n)
	if _, known := Kinds[kind]; !ok || err != nil || every < 1 || !known {
		return Fault{}, fmt.Errorf("fault %q: want KIND/N with N at least 1 and KIND one of not-json, wrong-id, exit, huge, sleep, crash, unsupported, large", s)
	}
	return Fault{kind, every}, nil
}

// Writer writes lines to w, the first (the answer to start) as it is and
// the answers after it with the faults, each answer delayed by delay.
// exit and sleep are os.Exit and time.Sleep, unless a test gives others.
type Writer struct {
	W       io.Writer
	Faults  []Fault
	Delay   time.Duration
	Exit    func(int)
	Sleep   func(time.Duration)
	lines   int
	pending []byte
}

var idPattern = regexp.MustCompile(`^\{"id":[0-9]+`)

// Write writes whole lines as they come, each with its faults.
func (f *Writer) Write(b []byte) (int, error) {
	f.pending = append(f.pending, b...)
	for {
		i := bytes.IndexByte(f.pending, '\n')
		if i < 0 {
			return len(b), nil
		}
		line := f.pending[:i+1]
		if err := f.line(line); err != nil {
			return 0, err
		}
		f.pending = f.pending[i+1:]
	}
}

func (f *Writer) line(line []byte) error {
	f.lines++
	answer := f.lines - 1 // the answer to start is line 1
	if answer == 0 {
		_, err := f.W.Write(line)
		return err
	}
	if f.Delay > 0 {
		f.Sleep(f.Delay)
	}
	exit, huge := false, false
	for _, ft := range f.Faults {
		if answer%ft.Every != 0 {
			continue
		}
		switch ft.Kind {
		case "not-json":
			line = []byte("Traceback (most recent call last): a fault on purpose\n")
		case "wrong-id":
			line = idPattern.ReplaceAll(line, []byte(`{"id":999999999`))
		case "unsupported":
			line = append(slices.Clone(idPattern.Find(line)), `,"unsupported":"a fault on purpose"}`+"\n"...)
		case "large":
			line = append(append(append(slices.Clone(idPattern.Find(line)), `,"arguments":{"x":"`...), bytes.Repeat([]byte("\u00a0"), 500_000)...), "\"}}\n"...)
		case "huge":
			huge = true // written in chunks below: the reader gives up long before its end
		case "sleep":
			f.Sleep(30 * time.Second)
		case "crash":
			f.Exit(3)
			return io.ErrClosedPipe
		case "exit":
			exit = true
		}
	}
	var err error
	if huge {
		err = writeHuge(f.W)
	} else {
		_, err = f.W.Write(line)
	}
	if exit {
		f.Exit(0)
		return io.ErrClosedPipe
	}
	return err
}

// hugeChunk is the part of a huge line written at a time, made when
// first needed (not when every toolnorm command starts).
var hugeChunk = sync.OnceValue(func() []byte { return bytes.Repeat([]byte("x"), 1<<20) })

// writeHuge writes a line of 64 MB (an answer whose one string is 64,000,000
// bytes of "x") a megabyte at a time, without holding it: the harness stops
// reading it at its limit and ends the process, and the write fails then.
func writeHuge(w io.Writer) error {
	if _, err := io.WriteString(w, `{"id":0,"arguments":{"x":"`); err != nil {
		return err
	}
	chunk := hugeChunk()
	for left := 64_000_000; left > 0; left -= len(chunk) {
		if _, err := w.Write(chunk[:min(left, len(chunk))]); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\"}}\n")
	return err
}
