/**
 * A big single trace for the served viewer's benchmark: one run of a few hundred thousand steps
 * (a model call asking for a tool call, the model's reasoning and the tool's result a few hundred
 * bytes each), written from the events of a real 3-step run of the loop with seqs, span ids and
 * times renumbered, until the file reaches the size asked for.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { run, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { adderAgent, addScript } from '../scenario.js';

const reasoning =
  'The customer asked for the running total, so I add the next number to what we have so far and keep the sum; the ledger must match the receipts line by line, and any gap is reported with the step where it appeared. ';
const note = 'Checked against the ledger: the sum matches the receipts up to this line.';

type Mutable = Record<string, unknown>;

/** A copy of an event whose fields can be renumbered. */
const copy = (event: object): Mutable => ({ ...event });

/** Writes the trace; returns its bytes, events and rows (spans and point events). */
export async function writeBigTrace(
  path: string,
  bytes: number,
): Promise<{ bytes: number; events: number; steps: number }> {
  const sink = memorySink();
  await run(adderAgent(fakeLLM(addScript(3)), 3), 'Add the receipts up.', { trace: sink });
  const template = sink.events as readonly TraceEvent[];
  const [runStart, agentStart] = template;
  const step = template.slice(2, 6).map(copy);
  const ending = template.slice(-4).map(copy);
  const started = Date.parse(runStart!.time);
  const file = openSync(path, 'w');
  let written = 0;
  let pending: string[] = [];
  let pendingBytes = 0;
  let seq = 0;
  let events = 0;
  const write = (event: Mutable, at: number): void => {
    event.seq = seq++;
    event.time = new Date(started + at).toISOString();
    const line = `${JSON.stringify(event)}\n`;
    pending.push(line);
    pendingBytes += line.length;
    events++;
    if (pendingBytes > 8 * 2 ** 20) flush();
  };
  const flush = (): void => {
    written += writeSync(file, pending.join(''));
    pending = [];
    pendingBytes = 0;
  };
  write(copy(runStart!), 0);
  write(copy(agentStart!), 1);
  let steps = 0;
  for (; written + pendingBytes < bytes; steps++) {
    const [llmStart, llmEnd, toolStart, toolEnd] = step.map(copy);
    const call = `call-${steps}`;
    for (const event of [llmStart!, llmEnd!]) {
      event.span_id = `llm-${steps}`;
      event.step = steps + 1;
    }
    llmEnd!.text = reasoning;
    llmEnd!.tool_calls = [{ call_id: call, tool: 'add', arguments: `{"a":${steps},"b":1}` }];
    for (const event of [toolStart!, toolEnd!]) {
      event.span_id = `tool-${steps}`;
      event.call_id = call;
      event.args = { a: steps, b: 1 };
    }
    toolEnd!.result = { sum: steps + 1, note };
    const at = 2 + steps * 20;
    write(llmStart!, at);
    write(llmEnd!, at + 12);
    write(toolStart!, at + 13);
    write(toolEnd!, at + 15);
  }
  for (const [index, event] of ending.entries()) write(event, 2 + steps * 20 + index);
  flush();
  closeSync(file);
  return { bytes: written, events, steps };
}
