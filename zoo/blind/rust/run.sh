#!/bin/sh
exec "$(dirname "$0")/target/release/blindnorm" "$@"
