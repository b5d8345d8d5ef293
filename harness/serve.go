package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/toolnorm/toolnorm/impl"
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
func Serve(r io.Reader, w io.Writer, errLog io.Writer, im impl.Impl, info Info, d Declares) error {
	in := bufio.NewReaderSize(r, 64<<10)
	out := bufio.NewWriterSize(w, 64<<10)
	opts := d.Options()
	var buf []byte
	for {
		var err error
		buf, err = readLine(in, buf[:0])
		if len(buf) > 0 {
			stop, answered := serveLine(out, bytes.Clone(buf), im, info, d, opts)
			if stop {
				return out.Flush()
			}
			if !answered {
				fmt.Fprintf(errLog, "serve: cannot read the request %.200q\n", buf)
			}
			if in.Buffered() == 0 { // answers go out before waiting for more
				if err := out.Flush(); err != nil {
					return err
				}
			}
		}
		if err == io.EOF {
			return out.Flush()
		}
		if err != nil {
			return err
		}
	}
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

// serveLine answers the request line on w. It reports whether the line
// is stop, and whether it was answered (stop and a command it does not
// know are not, and need not be).
func serveLine(w *bufio.Writer, line []byte, im impl.Impl, info Info, d Declares, opts impl.Options) (stop, answered bool) {
	if !jsonraw.Valid(line) {
		return false, false
	}
	var cmd string
	var id, schema, args []byte
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
		}{Version, info, d})
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
		r := im.Normalize(context.Background(), impl.Case{Schema: schema, Args: args, Options: opts})
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
		w.WriteString("}\n")
		return false, true
	}
	return false, false
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
