// Package hostile builds the hostile inputs of issue 34 ("Bounded on every
// input") at a given size: a tool's schema and arguments shaped so that a
// normalizer whose cost is not linear in its input takes minutes or
// gigabytes on a megabyte. Benchmarks and fuzz targets of any package can
// use them; each shape says which part of the work it stresses.
//
// A shape's size is the number of bytes of the part that grows, the
// arguments or the schema ([Shape.Grows]): from 1 KB to 4 MB, built within
// a few percent of that size and never above it. The same size gives the
// same bytes on every run: nothing is random.
//
// It imports only the standard library, so that any package may use it in
// its tests.
package hostile
