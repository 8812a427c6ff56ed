// The feature contract, version 2: a feature says the version it is written for; each hook is
// given one object; a feature transforms the request and the answer (the trace names it), refuses
// in its own name and kind, writes events of its own, and writes under a tool call's span from
// the hooks of that call.
import {
  ConfigurationError,
  run,
  traceSinkVersion,
  type ModelResponse,
  type TraceSink,
} from '@agent-trace/core';
import { featureVersion, standardFeatures, type Feature } from '@agent-trace/core/features';
import { memorySink, rerunTrace, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { echoing } from './echo-agents.js';

describe('the feature contract', () => {
  it('refuses a feature written for another version, or with a name its events cannot carry', async () => {
    expect(featureVersion).toBe(2);
    const old = { name: 'old', forRun: () => ({}) } as unknown as Feature;
    await expect(run(echoing(), 'go', { features: [old] })).rejects.toThrow(
      /Feature 'old' is written for feature contract 1 \(it has no version\); this release speaks version 2/,
    );
    const named = { name: 'My Feature', version: 2, forRun: () => ({}) } as Feature;
    await expect(run(echoing(), 'go', { features: [named] })).rejects.toThrow(ConfigurationError);
  });

  it('refuses a trace sink written for another sink contract; ours carry theirs', async () => {
    expect(memorySink().version).toBe(traceSinkVersion);
    const future = { ...memorySink(), version: 2 } as unknown as TraceSink;
    await expect(run(echoing(), 'go', { trace: future })).rejects.toThrow(
      /written for sink contract 2; this release speaks version 1/,
    );
  });

  it('transforms the request before it is checked and sent: llm_start records what was sent', async () => {
    const checked: string[] = [];
    const shout: Feature = {
      name: 'shout',
      version: 2,
      forRun: () => ({
        transformRequest: ({ request }) => ({ ...request, instructions: 'SHOUT' }),
        beforeModelCall: ({ request }) => void checked.push(request.instructions),
      }),
    };
    const trace = memorySink();
    await run(echoing(), 'go', { features: [shout], trace });
    expect(checked).toEqual(['SHOUT', 'SHOUT']);
    const transforms = trace.events.filter(event => event.event === 'transform');
    expect(transforms).toMatchObject([
      { feature: 'shout', target: 'request', step: 1, changed: ['instructions'] },
      { feature: 'shout', target: 'request', step: 2, changed: ['instructions'] },
    ]);
    // The agent's own instructions were '', so the recorded request hash is the shouted one's.
    const plain = memorySink();
    await run(echoing(), 'go', { features: [], trace: plain });
    const hash = (events: typeof trace.events) =>
      events.find(event => event.event === 'llm_start' && event.step === 1);
    expect(hash(trace.events)).not.toMatchObject({
      request_hash: (hash(plain.events) as { request_hash: string }).request_hash,
    });
    expect(validateTrace(trace.events).valid).toBe(true);
    const same = await rerunTrace(trace.events, echoing(), { run: { features: [shout] } });
    expect(same.same).toBe(true);
  });

  it('transforms the answer the loop reads; llm_end keeps what the model said', async () => {
    const polite: Feature = {
      name: 'polite',
      version: 2,
      forRun: () => ({
        transformAnswer: ({ response }): ModelResponse | undefined =>
          response.toolCalls.length > 0
            ? undefined
            : { ...response, text: `${response.text}, please` },
      }),
    };
    const trace = memorySink();
    const result = await run(echoing('done'), 'go', { features: [polite], trace });
    expect(result.output).toBe('done, please');
    expect(trace.events.filter(event => event.event === 'llm_end').at(-1)).toMatchObject({
      text: 'done',
    });
    expect(trace.events.find(event => event.event === 'transform')).toMatchObject({
      feature: 'polite',
      target: 'answer',
      step: 2,
      changed: ['text'],
    });
    const blunt: Feature = {
      name: 'polite',
      version: 2,
      forRun: () => ({
        transformAnswer: ({ response }) =>
          response.toolCalls.length > 0 ? undefined : { ...response, text: `${response.text}!` },
      }),
    };
    const changed = await rerunTrace(trace.events, echoing(), { run: { features: [blunt] } });
    expect(changed.firstDivergence?.expected).toMatch(
      /^feature 'polite' changed the answer to model call 2 \(text\)/,
    );
  });

  it("refuses a model call in the feature's own name, and writes its own events", async () => {
    const closed: Feature = {
      name: 'office-hours',
      version: 2,
      forRun: ({ emit, refuseModel }) => ({
        modelAttempt: at => {
          emit(at, 'closed', { hour: 22 });
          return {
            refusal: () => refuseModel({ kind: 'after_hours', message: 'The desk is closed.' }),
          };
        },
      }),
    };
    const trace = memorySink();
    const result = await run(echoing(), 'go', { features: [...standardFeatures, closed], trace });
    expect(result.stopReason).toBe('error');
    expect(trace.events.find(event => event.event === 'llm_end')).toMatchObject({
      error: { type: 'refused', feature: 'office-hours', refusal: 'after_hours' },
    });
    expect(trace.events.find(event => event.event === 'feature')).toMatchObject({
      feature: 'office-hours',
      name: 'closed',
      data: { hour: 22 },
    });
    expect(validateTrace(trace.events).valid).toBe(true);
    expect(
      (
        await rerunTrace(trace.events, echoing(), {
          run: { features: [...standardFeatures, closed] },
        })
      ).same,
    ).toBe(true);
    const badKind: Feature = {
      name: 'bad',
      version: 2,
      forRun: ({ refuseModel }) => ({
        modelAttempt: () => ({ refusal: () => refuseModel({ kind: 'After Hours', message: 'x' }) }),
      }),
    };
    // A kind the trace cannot carry ends the run with a configuration error that names it.
    const bad = await run(echoing(), 'go', { features: [badKind] });
    expect(bad.error).toBeInstanceOf(ConfigurationError);
    expect(bad.error?.message).toMatch(/Feature 'bad' gave the refusal kind "After Hours"/);
  });

  it("writes from a tool attempt's hook under the tool call's span", async () => {
    const audit: Feature = {
      name: 'audit',
      version: 2,
      forRun: ({ emit }) => ({
        toolAttempt: at => {
          emit(at, 'tool_seen', { tool: at.tool.name });
          return undefined;
        },
      }),
    };
    const trace = memorySink();
    await run(echoing(), 'go', { features: [audit], trace });
    const toolSpan = trace.events.find(event => event.event === 'tool_start')?.span_id;
    expect(trace.events.find(event => event.event === 'feature')).toMatchObject({
      name: 'tool_seen',
      parent_span_id: toolSpan,
    });
  });
});
