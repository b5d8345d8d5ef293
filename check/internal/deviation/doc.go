// Package deviation is the catalogue of the ways real normalizers differ
// from the reference: each [Deviation] is the reference normalizer with
// one change of behaviour (repairs only at the top level, one decoding
// pass, `$ref` not followed, a validator after the repair, numbers read
// as float64, ...), run by [Apply] on any case, alone or with a second
// one.
//
// A finding of a check is explained by a deviation when the reference with
// that deviation gives exactly the implementation's answer on the finding's
// case (impl.Compare). That is how the check names root causes
// (check/internal/explain): by behaviour, checked on each case, not by the
// symptoms a case shows. The same catalogue gives the broken normalizers
// the properties must catch ([Deviation.Impl]).
//
// The catalogue is data ([Catalogue]): each entry is an id, a title, the
// clause of the rule or the reading it breaks, its change to the reference,
// and witnesses, small cases on which it differs from the reference, the
// first of them the example its title gives.
//
// The changes are of four kinds, which compose: options of the case
// changed (the profile), the schema rewritten before the reference reads it
// (a keyword not followed), switches of a model normalizer (the reference's
// algorithm written again over a JSON tree, with the parts real code gets
// wrong made switchable), and the output rewritten after it (numbers
// through float64, members sorted), or judged by a validator.
package deviation
