// Not installed here: openai, @anthropic-ai/sdk, @modelcontextprotocol/sdk, msw, fast-check, yaml, csv-parse, @duckdb/node-api, @openai/agents. Each entry that needs one must
// say which package to install, not fail with a bare ERR_MODULE_NOT_FOUND.
// What an application runs with is advised as a dependency; what only its tests use, as a
// development one.
const entries = [
  ['@agent-trace/core/openai', 'openai', 'runtime'],
  ['@agent-trace/core/anthropic', '@anthropic-ai/sdk', 'runtime'],
  ['@agent-trace/core/mcp', '@modelcontextprotocol/sdk', 'runtime'],
  ['@agent-trace/testing/msw', 'msw', 'dev'],
  ['@agent-trace/testing/mcp', '@modelcontextprotocol/sdk', 'dev'],
  ['@agent-trace/testing/property', 'fast-check', 'dev'],
  ['@agent-trace/core/workflow', 'yaml', 'runtime'],
];
const advised = (message, peer, kind) =>
  kind === 'runtime'
    ? message.includes(`npm install ${peer}@`) && !message.includes('--save-dev')
    : message.includes(`npm install --save-dev ${peer}@`);
let failed = false;
for (const [entry, peer, kind] of entries) {
  try {
    await import(entry);
    console.error(`✗ ${entry} loaded, but '${peer}' is not installed`);
    failed = true;
  } catch (error) {
    const expected = `${entry} needs the package '${peer}'`;
    if (
      error.name === 'MissingPeerError' &&
      error.message.startsWith(expected) &&
      advised(error.message, peer, kind)
    ) {
      console.log(`✓ ${error.message}`);
    } else {
      console.error(`✗ ${entry}: ${error.name}: ${error.message}`);
      failed = true;
    }
  }
}
// The bridges' entries load without their framework; their first model call names it.
{
  const { openaiAgentsModel } = await import('@agent-trace/openai-agents');
  const { fakeLLM } = await import('@agent-trace/testing');
  const request = { input: 'hi', tools: [], handoffs: [], outputType: 'text', modelSettings: {} };
  try {
    await openaiAgentsModel(fakeLLM([{ text: 'hi' }])).getResponse(request);
    console.error("✗ @agent-trace/openai-agents answered, but '@openai/agents' is not installed");
    failed = true;
  } catch (error) {
    if (
      error.name === 'MissingPeerError' &&
      error.message.includes("needs the package '@openai/agents'") &&
      advised(error.message, '@openai/agents', 'runtime')
    ) {
      console.log(`✓ ${error.message}`);
    } else {
      console.error(`✗ @agent-trace/openai-agents: ${error.name}: ${error.message}`);
      failed = true;
    }
  }
}
// Reading a YAML or CSV data file of an eval needs `yaml` / `csv-parse`; the rest of evals does not.
import { writeFileSync } from 'node:fs';
const { loadCases } = await import('@agent-trace/evals');
for (const [file, text, peer] of [
  ['cases.yaml', '- input: hi\n', 'yaml'],
  ['cases.csv', 'input\nhi\n', 'csv-parse'],
]) {
  writeFileSync(file, text);
  try {
    await loadCases(file);
    console.error(`✗ ${file} was read, but '${peer}' is not installed`);
    failed = true;
  } catch (error) {
    if (
      error.name === 'MissingPeerError' &&
      error.message.includes(`needs the package '${peer}'`)
    ) {
      console.log(`✓ ${error.message}`);
    } else {
      console.error(`✗ ${file}: ${error.name}: ${error.message}`);
      failed = true;
    }
  }
}
// Keeping experiments needs `@duckdb/node-api`; running an eval without keeping it does not.
const { ExperimentStore } = await import('@agent-trace/evals/experiments');
try {
  await new ExperimentStore({ root: 'store-without-duckdb' }).list();
  console.error("✗ the experiment store opened, but '@duckdb/node-api' is not installed");
  failed = true;
} catch (error) {
  if (
    error.name === 'MissingPeerError' &&
    error.message.includes("needs the package '@duckdb/node-api'")
  ) {
    console.log(`✓ ${error.message}`);
  } else {
    console.error(`✗ the experiment store: ${error.name}: ${error.message}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
