package minimize

// The tests build every patched candidate as a tree too, and fail on a
// patch whose text is not its tree's.
func init() { checkPatches = true }
