#!/usr/bin/env bash
# Operations per second of WireCodec's Foundation path and fast path on typical messages
# (record change, match, notification), both measured in the same release binary.
# Builds scripts/codec-bench/main.swift together with Sources/HeraldModel into $SCRATCH
# (default /tmp/herald-codec-bench) with `nice`, then runs it.
set -eu
cd "$(dirname "$0")/.."
scratch=${SCRATCH:-/tmp/herald-codec-bench}
mkdir -p "$scratch"
nice -n "${NICE:-10}" swiftc -O -wmo -swift-version 6 -enable-bare-slash-regex -module-name HeraldModel \
    $(find Sources/HeraldModel -name '*.swift') scripts/codec-bench/main.swift -o "$scratch/codec-bench"
"$scratch/codec-bench"
