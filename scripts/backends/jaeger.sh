#!/usr/bin/env bash
# Builds Jaeger v2 (its `cmd/jaeger` program) at the version below from the Go module proxy, once
# per machine, into a git-ignored cache keyed by version; later runs reuse it. Prints the binary.
# Needs Go (1.24 or newer). The cache folder: AGENT_TRACE_BACKENDS (default: .cache/backends).
set -euo pipefail
cd "$(dirname "$0")/../.."
version=v1.76.0
cache="${AGENT_TRACE_BACKENDS:-$PWD/.cache/backends}/jaeger-$version"
binary="$cache/bin/jaeger"
if [ -x "$binary" ]; then echo "$binary"; exit 0; fi
if ! command -v go >/dev/null; then
  echo "Jaeger is built from the Go module proxy: install Go 1.24 or newer (https://go.dev/dl), then run this again." >&2
  exit 1
fi
mkdir -p "$cache/module"
cd "$cache/module"
[ -f go.mod ] || go mod init agent-trace.local/jaeger-build >/dev/null 2>&1
echo "building Jaeger $version from the Go module proxy into $cache (once per machine; minutes)" >&2
if ! go get -tool "github.com/jaegertracing/jaeger/cmd/jaeger@$version" > build.log 2>&1 ||
  ! go build -o "$binary.partial" github.com/jaegertracing/jaeger/cmd/jaeger >> build.log 2>&1; then
  cat build.log >&2
  echo "building Jaeger $version failed (above); the Go module proxy must be reachable (GOPROXY)." >&2
  exit 1
fi
mv "$binary.partial" "$binary"
echo "$binary"
