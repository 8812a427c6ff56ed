#!/usr/bin/env bash
# Installs Arize Phoenix at the version below from PyPI, once per machine, into a virtual
# environment in a git-ignored cache keyed by version; later runs reuse it. Prints its Python
# (start Phoenix with scripts/backends/phoenix-serve.py, which keeps it on 127.0.0.1).
# Needs Python 3.10 to 3.13 with venv. The cache folder: AGENT_TRACE_BACKENDS (default: .cache/backends).
set -euo pipefail
cd "$(dirname "$0")/../.."
version=20.26.1
cache="${AGENT_TRACE_BACKENDS:-$PWD/.cache/backends}/phoenix-$version"
python="$cache/venv/bin/python"
if [ -f "$cache/installed" ] && [ -x "$python" ]; then echo "$python"; exit 0; fi
base="${PYTHON:-python3}"
if ! command -v "$base" >/dev/null; then
  echo "Phoenix is installed from PyPI: install Python 3.10 to 3.13 (with venv), then run this again." >&2
  exit 1
fi
echo "installing Arize Phoenix $version from PyPI into $cache (once per machine; a minute or two)" >&2
rm -rf "$cache"
mkdir -p "$cache"
"$base" -m venv "$cache/venv" >&2
if ! "$cache/venv/bin/pip" install --quiet --disable-pip-version-check "arize-phoenix==$version" > "$cache/install.log" 2>&1; then
  cat "$cache/install.log" >&2
  echo "installing Phoenix $version failed (above); PyPI must be reachable." >&2
  exit 1
fi
touch "$cache/installed"
echo "$python"
