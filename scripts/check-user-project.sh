#!/usr/bin/env bash
# Builds and packs the packages as they would be published, installs them into a scratch project
# set up as the README says (vitest with the setup file), and checks there that a user's project
# type-checks and runs a test, that the CLI runs, and that a missing optional peer says what to
# install. Nothing of the workspace is visible to the scratch project but the packed tarballs.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
packs="$scratch/packs"
project="$scratch/project"
mkdir -p "$packs" "$project/test"

echo "== build and pack the packages"
npx -y pnpm@10 -r run build >/dev/null
for package in core trace testing viewer cli; do
  (cd "packages/$package" && npx -y pnpm@10 pack --pack-destination "$packs" >/dev/null)
done
ls "$packs"

echo "== a user's project: $project"
cp -r "$root/scripts/user-project/." "$project/"
cd "$project"
npm install --no-audit --no-fund --loglevel=error "$packs"/*.tgz \
  vitest@~4.1.12 typescript@~5.9.3 zod@^4.1.0 @types/node@^20.19.0

echo "== tsc in the user's project"
npx tsc --noEmit -p tsconfig.json

echo "== vitest in the user's project"
npx vitest run

echo "== the CLI from the installed package"
npx agent-trace validate traces/user.jsonl
npx agent-trace replay traces/user.jsonl >/dev/null
npx agent-trace view traces/user.jsonl --no-open --out "$scratch/user.html"
grep -q 'id="agent-trace-data"' "$scratch/user.html"

echo "== a missing optional peer says what to install"
node check-missing-peers.mjs
