// Package fuzz holds toolnorm's native fuzz targets (go test -fuzz), for
// nightly CI and for OSS-Fuzz and ClusterFuzzLite, and the helpers they
// share:
//
//   - FuzzNormalize: arbitrary bytes as schema and arguments; no panic,
//     typed errors without output, JSON output that normalizing again
//     leaves as it is.
//   - FuzzDifferential: the reference normalizer against the slow
//     spec-literal one (package oracle) on the same bytes.
//   - FuzzDecode: DecodeEntities against x/net's decoding iterated to a
//     fixpoint, in the text and attribute profiles, with a pass bound.
//   - FuzzStructured: the fuzzer's bytes turned into a schema tree and
//     arguments that fit it (sigs.k8s.io/randfill, the maintained fork of
//     the archived github.com/google/gofuzz, with the same NewFromGoFuzz
//     entry point), then compared as FuzzDifferential does.
//   - FuzzProperties: the properties of package properties, their rapid
//     generators driven by the fuzzer's bytes (rapid.MakeFuzz).
//
// go test ./... runs each target's seeds: those under testdata/fuzz/ and
// those its f.Add calls make from the committed corpus. Longer runs:
//
//	go test -run '^$' -fuzz FuzzDifferential -fuzztime 10m ./fuzz
package fuzz
