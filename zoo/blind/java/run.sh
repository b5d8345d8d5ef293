#!/bin/sh
# Builds the adapter when a source is newer than the build, then runs it.
DIR=$(cd "$(dirname "$0")" && pwd)
OUT="$DIR/out"
if [ ! -f "$OUT/Adapter.class" ] || [ -n "$(find "$DIR" -maxdepth 1 -name '*.java' -newer "$OUT/Adapter.class")" ]; then
  mkdir -p "$OUT" && javac -d "$OUT" "$DIR"/*.java 1>&2 || exit 1
fi
exec java -Xss16m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$OUT" Adapter
