// Package harness drives an RT-TOOL-8 implementation written in any
// language through protocol version 1 (docs/protocol.md): newline-delimited
// JSON over the standard input and output of a program, an "adapter",
// started once and sent many requests, pipelined.
//
// An [Adapter] is an impl.Impl, so the corpus, the properties and the
// fuzzer check a program exactly as they check the reference. It survives
// whatever the program does: a request that gets no answer in time, a
// crash or an exit, a wrong id, a line that is not JSON, an answer past the
// size limit, a flood of standard error, answers given without reading the
// requests, no answer to start. Each is recorded against the request that
// caused it (as impl.ErrTimeout, impl.ErrCrash or impl.ErrProtocol, with
// what the program wrote to standard error), the program is restarted (up
// to a limit) and the run goes on; results already gathered are never
// lost. No wait on the program is without a bound, and what is read ahead
// of the harness is bounded in bytes.
//
// [Serve] is the other side: it makes a Go implementation an adapter.
package harness
