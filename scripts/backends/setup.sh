#!/usr/bin/env bash
# Makes the real backends the backend tests start: Jaeger, built with Go once per machine into a
# git-ignored cache. Prints where it is.
set -euo pipefail
cd "$(dirname "$0")"
echo "jaeger: $(bash jaeger.sh)"
