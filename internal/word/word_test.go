package word

import "testing"

func TestOf(t *testing.T) {
	buf := []byte("amp;lt;xyzw")
	for _, tt := range []struct {
		k    []byte
		want uint64
	}{
		{buf[:3], 0x706d61},           // "amp", read from a larger buffer
		{[]byte("amp"), 0x706d61},     // the same, from a short slice
		{buf[:7], 0x3b746c3b706d61},   // "amp;lt;", masked to seven bytes
		{buf[:8], 0x783b746c3b706d61}, // "amp;lt;x", a whole word
		{[]byte{}, 0},
	} {
		if got := Of(tt.k); got != tt.want {
			t.Errorf("Of(%q) = %#x, want %#x", tt.k, got, tt.want)
		}
	}
}
