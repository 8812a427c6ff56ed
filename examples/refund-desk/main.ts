/**
 * The refund desk, paused for a manager's approval in one process and resumed in another:
 *
 *   pnpm refund-desk start  --state <file> [--trace <file>] [--fake]
 *   pnpm refund-desk resume --state <file> (--approve | --reject <reason> | --amount <n>) [--by <name>] [--trace <file>] [--fake] [--fork]
 *
 * `start` runs until the refund waits for approval and writes the run's state to the file;
 * `resume` reads it and goes on with the decision. Both append to the same trace, which then
 * holds one run. A state goes on once: a second `resume` of it is refused (the trace's ledger,
 * beside the file, remembers); `--fork` goes on from the same pause as a new run instead. `--fake` (the default) uses scripted models; `--live` a real one
 * (OPENAI_API_KEY or ANTHROPIC_API_KEY).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resume, run, type LanguageModel } from '@agent-trace/core';
import { type ApprovalDecision } from '@agent-trace/core/approval';
import { anthropic } from '@agent-trace/core/anthropic';
import { openai } from '@agent-trace/core/openai';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { afterPause, beforePause, refundDesk } from './desk.js';

const [command = '', ...rest] = process.argv.slice(2);
const flag = (name: string) => {
  const at = rest.indexOf(`--${name}`);
  return at === -1 ? undefined : rest[at + 1];
};
const has = (name: string) => rest.includes(`--${name}`);

function model(script: readonly FakeLLMStep[]): LanguageModel {
  if (!has('live')) return fakeLLM(script, { modelId: 'gpt-4o-mini' });
  if ((process.env.OPENAI_API_KEY ?? '') !== '') return openai('gpt-4o-mini');
  if ((process.env.ANTHROPIC_API_KEY ?? '') !== '') return anthropic('claude-sonnet-4-6');
  throw new Error(
    '--live needs OPENAI_API_KEY or ANTHROPIC_API_KEY; or drop --live for the scripted models.',
  );
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const statePath = flag('state') ?? fail('Say where the run state goes: --state <file>.');
const sink = jsonlSink(flag('trace') ?? 'traces/refund-desk.jsonl');

if (command === 'start') {
  const paused = await run(refundDesk(model(beforePause)), 'Please refund order 42 in full.', {
    trace: sink,
    session: 'refund-desk',
  });
  await sink.close();
  if (paused.state === undefined)
    fail(`The run did not pause: it stopped with ${paused.stopReason}.`);
  writeFileSync(statePath, JSON.stringify(paused.state, null, 2));
  for (const pending of paused.interruptions)
    process.stdout.write(
      `waiting for approval: ${pending.toolName} ${JSON.stringify(pending.args)} (call ${pending.callId})\n`,
    );
  process.stdout.write(
    `state written to ${statePath}; resume with --approve, --reject <reason> or --amount <n>\n`,
  );
} else if (command === 'resume') {
  const state = readFileSync(statePath, 'utf8');
  const { turn } = JSON.parse(state) as { turn: { pending: { callId: string; args: object }[] } };
  const by = flag('by') ?? 'manager';
  const reason = flag('reject');
  const amount = flag('amount');
  const decisions = turn.pending.map(({ callId, args }): ApprovalDecision => {
    if (reason !== undefined) return { callId, decision: 'reject', by, reason };
    if (amount !== undefined)
      return { callId, decision: 'edit', by, args: { ...args, amount: Number(amount) } };
    if (has('approve')) return { callId, decision: 'approve', by };
    return fail('Decide: --approve, --reject <reason> or --amount <n>.');
  });
  const result = await resume(refundDesk(model(afterPause)), state, {
    decisions,
    trace: sink,
    fork: has('fork'),
  }).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
  await sink.close();
  process.stdout.write(`${result.stopReason}: ${result.output}\n`);
  if (has('fork')) process.stdout.write(`(a fork: run ${result.runId})\n`);
} else {
  fail('Usage: refund-desk start --state <file> | refund-desk resume --state <file> --approve');
}
