/**
 * The Tiny Agent: a terminal chat whose tools come from MCP servers and whose model is named by a
 * model string, every turn traced to JSONL.
 *
 *   pnpm tiny-agent --config examples/tiny-agent/config.fake.json   # a real model (its key needed)
 *   pnpm tiny-agent --fake                                          # offline: a scripted model
 *
 * The config file: { "model": "openai:gpt-4o", "mcpServers": { … } }. Ctrl-C stops the answer
 * being written (the turn's trace is sealed as aborted); Ctrl-C again, or at the prompt, exits.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  agent,
  model,
  stream,
  type Chunk,
  type LanguageModel,
  type Message,
} from '@agent-trace/core';
import { connectMcp, type McpConfig } from '@agent-trace/core/mcp';
import { jsonlSink } from '@agent-trace/trace';
import { fakeTinyModel } from './fake-model.js';

interface TinyConfig extends McpConfig {
  readonly model?: string;
}

const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};
const fake = process.argv.includes('--fake');
const configPath = argument('--config') ?? 'examples/tiny-agent/config.fake.json';
const tracePath = argument('--trace') ?? 'traces/tiny-agent.jsonl';

function loadConfig(path: string): TinyConfig {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as TinyConfig;
  } catch (error) {
    process.stderr.write(
      `Cannot read the Tiny Agent config ${path}: ${error instanceof Error ? error.message : String(error)}.\n` +
        'It is JSON: { "model": "openai:gpt-4o", "mcpServers": { "name": { "command": "…", "args": [] } } }.\n',
    );
    process.exit(2);
  }
}

const config = loadConfig(configPath);
const llm: LanguageModel = fake ? fakeTinyModel() : model(config.model);
await using mcp = await connectMcp({ mcpServers: config.mcpServers });
const sink = jsonlSink(tracePath);
const tiny = agent({
  name: 'tiny',
  instructions: 'You are a helpful assistant. Use the tools when they help.',
  model: llm,
  tools: [...mcp.tools],
  limits: { maxSteps: 8 },
});
const session = `tiny-${Date.now()}`;
const write = (text: string) => process.stdout.write(text);
write(
  `Tiny Agent — model ${llm.provider}/${llm.modelId}, tools: ${mcp.tools.map(tool => tool.name).join(', ') || 'none'}\n` +
    `Tracing to ${tracePath}. Ctrl-C stops an answer; Ctrl-C at the prompt exits.\n`,
);

const lines = createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
let history: readonly Message[] = [];
let turn: AbortController | undefined;

/** Shows a chunk as it arrives: text as it streams, a line per tool call and result. */
function show(chunk: Chunk): void {
  if (chunk.type === 'delta') write(chunk.data.text);
  else if (chunk.type === 'tool_call')
    write(`\n  ⚙ ${chunk.data.toolName} ${JSON.stringify(chunk.data.args)}`);
  else if (chunk.type === 'tool_response')
    write(` → ${chunk.data.error ?? JSON.stringify(chunk.data.result)}\n`);
}

async function ask(question: string): Promise<void> {
  turn = new AbortController();
  write('tiny> ');
  const running = stream(tiny, question, { history, trace: sink, session, signal: turn.signal });
  for await (const chunk of running) show(chunk);
  const result = await running.result;
  history = result.messages;
  write(result.stopReason === 'aborted' ? ' (stopped)\n' : '\n');
  turn = undefined;
}

lines.on('SIGINT', () => {
  if (turn === undefined || turn.signal.aborted) {
    lines.close();
    return;
  }
  turn.abort('Ctrl-C');
});

lines.prompt();
for await (const line of lines) {
  if (line.trim() !== '') await ask(line.trim());
  lines.prompt();
}
await sink.close();
write('bye\n');
