package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// Serve makes im an adapter: it speaks protocol version 1 on r and w
// (normally standard input and output) until it reads stop or the end of
// its input. It answers start with info and d, and every normalize with
// im's result under d's options. A request it cannot read is reported on
// errLog and not answered.
func Serve(r io.Reader, w io.Writer, errLog io.Writer, im impl.Impl, info Info, d Declares) error {
	in := bufio.NewReaderSize(r, 1<<20)
	out := bufio.NewWriterSize(w, 1<<16)
	opts := d.Options()
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			stop, answer := serveLine(line, im, info, d, opts)
			if stop {
				return out.Flush()
			}
			if answer != nil {
				out.Write(answer)
			} else {
				fmt.Fprintf(errLog, "serve: cannot read the request %.200q\n", line)
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

func serveLine(line []byte, im impl.Impl, info Info, d Declares, opts impl.Options) (stop bool, answer []byte) {
	v, err := jsonvalue.Parse(line)
	if err != nil || v.Kind != jsonvalue.Object {
		return false, nil
	}
	var cmd string
	var id, schema, args *jsonvalue.Value
	for _, m := range v.Members {
		switch m.Key {
		case "cmd":
			cmd = m.Value.Str
		case "id":
			id = m.Value
		case "schema":
			schema = m.Value
		case "arguments":
			args = m.Value
		}
	}
	switch cmd {
	case "stop":
		return true, nil
	case "start":
		b, _ := json.Marshal(struct {
			Version        int      `json:"version"`
			Implementation Info     `json:"implementation"`
			Declares       Declares `json:"declares"`
		}{Version, info, d})
		return false, append(b, '\n')
	case "normalize":
		if id == nil || id.Kind != jsonvalue.Number || schema == nil || args == nil {
			return false, nil
		}
		r := im.Normalize(context.Background(), impl.Case{Schema: schema.Append(nil), Args: args.Append(nil), Options: opts})
		b := append([]byte(`{"id":`), id.Number...)
		if r.Kind() == impl.KindNotSendable {
			// The implementation cannot take the case as it is (a library
			// behind it cannot carry it): it is not judged.
			msg, _ := json.Marshal(r.Detail)
			if r.Detail == "" {
				msg = []byte(`"the implementation cannot take this case as it is"`)
			}
			return false, append(append(append(b, `,"unsupported":`...), msg...), '}', '\n')
		}
		if !r.Answered() {
			msg, _ := json.Marshal(r.String())
			b = append(append(append(b, `,"error":`...), msg...), '}', '\n')
			return false, b
		}
		out, err := jsonvalue.Parse(r.Output)
		if err != nil {
			msg, _ := json.Marshal("the implementation's output is not JSON: " + err.Error())
			return false, append(append(append(b, `,"error":`...), msg...), '}', '\n')
		}
		// Compact: a decoded string's JSON may hold newlines, and an
		// answer is one line.
		b = out.Append(append(b, `,"arguments":`...))
		return false, append(b, '}', '\n')
	}
	return false, nil
}
