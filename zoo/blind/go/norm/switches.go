package norm

import (
	"fmt"
	"strings"
	"sync"
)

// switches select alternative code paths (BLIND_SWITCHES, comma-separated).
type switches struct {
	s1, s2, s3, s4, s5, s6, s7, s8 bool
}

var (
	sw   switches
	swMu sync.Mutex
)

func parseSwitches(list string) (switches, error) {
	var s switches
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		switch name {
		case "":
		case "s1":
			s.s1 = true
		case "s2":
			s.s2 = true
		case "s3":
			s.s3 = true
		case "s4":
			s.s4 = true
		case "s5":
			s.s5 = true
		case "s6":
			s.s6 = true
		case "s7":
			s.s7 = true
		case "s8":
			s.s8 = true
		default:
			return switches{}, fmt.Errorf("unknown switch %q (want s1 to s8)", name)
		}
	}
	return s, nil
}

// SetSwitches turns on the switches named in list (as BLIND_SWITCHES holds them).
func SetSwitches(list string) error {
	s, err := parseSwitches(list)
	if err != nil {
		return err
	}
	swMu.Lock()
	sw = s
	swMu.Unlock()
	return nil
}

// NormalizeWith runs Normalize with the switches named in list on.
func NormalizeWith(list string, schema, arguments []byte) ([]byte, error) {
	s, err := parseSwitches(list)
	if err != nil {
		return nil, err
	}
	swMu.Lock()
	defer swMu.Unlock()
	old := sw
	sw = s
	defer func() { sw = old }()
	return Normalize(schema, arguments)
}
