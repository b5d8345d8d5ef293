package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/gocover"
	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// Serve makes im an adapter: it speaks protocol version 1 on r and w
// (normally standard input and output) until it reads stop or the end of
// its input. It answers start with info and d, and every normalize with
// im's result under d's options. A request it cannot read is reported on
// errLog and not answered.
//
// Each request costs Serve one copy of it, which the implementation is
// given (its schema and arguments are slices of it, and may be kept):
// the line is read into a buffer kept from one request to the next, and
// the schema, the arguments and the implementation's output, when they
// are compact JSON (as toolnorm sends them), are passed on as they are,
// not parsed.
//
// With info.Coverage set (to [GoCoverage], as the adapter toolnorm init
// writes does), Serve offers the coverage of the program's own Go code
// when it was built with -cover -covermode=atomic: the blocks each
// request that asks reached first (docs/protocol.md, "Coverage"). Built
// without, it offers none, and says so on errLog.
func Serve(r io.Reader, w io.Writer, errLog io.Writer, im impl.Impl, info Info, d Declares) error {
	in := bufio.NewReaderSize(r, 64<<10)
	s := &server{w: bufio.NewWriterSize(w, 64<<10), im: im, info: info, d: d, opts: d.Options()}
	if info.Coverage != "" {
		if gocover.Available() {
			s.cov = &gocover.Counters{}
		} else {
			fmt.Fprintf(errLog, "serve: no coverage offered (%s): the program has no coverage counters to read; build it with go build -cover -covermode=atomic\n", info.Coverage)
			s.info.Coverage = ""
		}
	}
	var buf []byte
	for {
		var err error
		buf, err = readLine(in, buf[:0])
		if len(buf) > 0 {
			stop, answered := s.serveLine(bytes.Clone(buf))
			if stop {
				return s.w.Flush()
			}
			if !answered {
				fmt.Fprintf(errLog, "serve: cannot read the request %.200q\n", buf)
			}
			if in.Buffered() == 0 { // answers go out before waiting for more
				if err := s.w.Flush(); err != nil {
					return err
				}
			}
		}
		if err == io.EOF {
			return s.w.Flush()
		}
		if err != nil {
			return err
		}
	}
}

// GoCoverage is the Info.Coverage of a Go adapter that offers its
// coverage: "blocks" (Go counts blocks of statements) when the program
// was built with -cover -covermode=atomic, else "". Call it from main:
// Go sets up the counters after package variables are initialized, so
// that a variable initialized with it is always "".
func GoCoverage() string {
	if gocover.Available() {
		return "blocks"
	}
	return ""
}

// server is what Serve answers with.
type server struct {
	w    *bufio.Writer
	im   impl.Impl
	info Info
	d    Declares
	opts impl.Options
	cov  *gocover.Counters // nil: no coverage offered
	ids  []uint32          // scratch for a request's coverage
}

// readLine appends the next line of r, with its newline, to buf.
func readLine(r *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// serveLine answers the request line. It reports whether the line is
// stop, and whether it was answered (stop and a command it does not know
// are not, and need not be).
func (s *server) serveLine(line []byte) (stop, answered bool) {
	w := s.w
	if !jsonraw.Valid(line) {
		return false, false
	}
	var cmd string
	var id, schema, args []byte
	asked := false
	isObject := members(line, func(key string, value []byte) bool {
		switch key {
		case "cmd":
			cmd = ""
			if value[0] == '"' {
				cmd = string(jsonraw.Unquote(nil, value[1:len(value)-1]))
			}
		case "id":
			id = value
		case "schema":
			schema = value
		case "arguments":
			args = value
		case "coverage":
			asked = string(value) == "true"
		}
		return true
	})
	if !isObject {
		return false, false
	}
	switch cmd {
	case "stop":
		return true, false
	case "start":
		b, _ := json.Marshal(struct {
			Version        int      `json:"version"`
			Implementation Info     `json:"implementation"`
			Declares       Declares `json:"declares"`
			Coverage       string   `json:"coverage,omitempty"`
		}{Version, s.info, s.d, s.info.Coverage})
		w.Write(append(b, '\n'))
		return false, true
	case "normalize":
		if id == nil || id[0] != '-' && (id[0] < '0' || id[0] > '9') || schema == nil || args == nil {
			return false, false
		}
		var err error
		if schema, err = compact(schema); err != nil {
			return false, false
		}
		if args, err = compact(args); err != nil {
			return false, false
		}
		covered := asked && s.cov != nil && s.cov.Clear() == nil
		r := s.im.Normalize(context.Background(), impl.Case{Schema: schema, Args: args, Options: s.opts})
		w.WriteString(`{"id":`)
		w.Write(id)
		switch {
		case r.Kind() == impl.KindNotSendable:
			// The implementation cannot take the case as it is (a library
			// behind it cannot carry it): it is not judged.
			msg, _ := json.Marshal(r.Detail)
			if r.Detail == "" {
				msg = []byte(`"the implementation cannot take this case as it is"`)
			}
			w.WriteString(`,"unsupported":`)
			w.Write(msg)
			covered = false // the protocol carries coverage on arguments and errors
		case !r.Answered():
			msg, _ := json.Marshal(r.String())
			w.WriteString(`,"error":`)
			w.Write(msg)
		default:
			// Compact: a decoded string's JSON may hold newlines, and an
			// answer is one line.
			out, err := compact(r.Output)
			if err != nil {
				msg, _ := json.Marshal("the implementation's output is not JSON: " + err.Error())
				w.WriteString(`,"error":`)
				w.Write(msg)
				break
			}
			w.WriteString(`,"arguments":`)
			w.Write(out)
		}
		if covered {
			s.writeCoverage()
		}
		w.WriteString("}\n")
		return false, true
	}
	return false, false
}

// writeCoverage writes the coverage member of an answer: the blocks the
// request reached that no request reached before. Counters it cannot
// read give an empty list: the answer stands, and toolnorm keeps nothing
// for it.
func (s *server) writeCoverage() {
	s.ids, _ = s.cov.Take(s.ids[:0], MaxCoverage)
	b := append(s.w.AvailableBuffer(), coverageMember...)
	for i, id := range s.ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(id), 10)
	}
	s.w.Write(append(b, ']'))
}

// compact returns the JSON value b written compact, its number text and
// escapes kept as jsonvalue writes them: b itself (cut to its length)
// when it is so already, else b parsed and written again.
func compact(b []byte) ([]byte, error) {
	if asIs(b) {
		return b[:len(b):len(b)], nil
	}
	v, err := jsonvalue.Parse(b)
	if err != nil {
		return nil, err
	}
	return v.Append(nil), nil
}
