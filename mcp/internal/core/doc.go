// Package core is what the MCP middlewares of this module share: a tool's
// input schema compiled once (an unusable one reported once and passed
// over), the arguments of a call normalized against it with the repairs
// reported, and a fast test that tells arguments no repair can apply to,
// so that the common call costs no schema lookup.
package core
