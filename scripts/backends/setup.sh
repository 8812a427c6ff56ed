#!/usr/bin/env bash
# Makes the real backends the backend tests start, each once per machine into a git-ignored
# cache: Jaeger (built with Go) and Arize Phoenix (installed with Python). Prints where they are.
set -euo pipefail
cd "$(dirname "$0")"
echo "jaeger: $(bash jaeger.sh)"
echo "phoenix: $(bash phoenix.sh)"
