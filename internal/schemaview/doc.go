// Package schemaview reads, roughly, what a JSON Schema declares at a
// position of the arguments and through which keywords: the reading the
// analysis of a check's findings names differences by, not the
// reference's (package normalize compiles schemas; this package never
// decides a repair).
//
// A [View] of a schema document gives, for a path of [Step]s into the
// arguments, the subschemas that apply there ([View.At]), each a [Reach]
// that says the keywords that led to it: `$ref`, `$dynamicRef` and
// `$recursiveRef` to local targets, `allOf`, `anyOf`, `oneOf`, the
// branches of `if`, `properties`, `patternProperties` (its ECMA-262
// patterns matched with a step budget), `additionalProperties`, `items`
// (one schema, or a list), `prefixItems` and `additionalItems`. Of those
// reaches, [Types], [Declaring] and [Shaping] tell which declares a type.
// References and combinators are followed a bounded number of times, so a
// cycle ends.
//
// [Walk] visits every object in a schema position of a document (never
// inside `const`, `enum`, `default` or `examples`, which hold data), the
// root first; [Keywords] names the notable keywords a schema holds, and
// [RefCycle] whether its `$ref`s make a cycle. [Declares],
// [DeclaresString], [Stringed] and [WithoutAt] read or edit a schema at a
// JSON Pointer into the arguments.
//
// The package sits below normalize: it imports only the JSON tree
// (internal/jsonvalue) and the ECMA-262 patterns (internal/ecma).
package schemaview
