import { describe, expect, it } from 'vitest';
import { agent } from '../../agent/agent.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { ModelAttemptHold, FeatureHooks } from './feature.js';

/** A feature's hooks as the seam takes them, under a name. */
const named = (hooks: FeatureHooks, name = 'f') => ({ name, hooks });
import { Seam, settleHolds, type Holds } from './seam.js';

const model: LanguageModel = {
  specificationVersion: 'v1',
  provider: 'fake',
  modelId: 'fake-model',
  generate: () => Promise.reject(new Error('not called')),
  stream: () => {
    throw new Error('not called');
  },
};
const plain = agent({ name: 'plain', model });
const guarded = agent({ name: 'guarded', model, guardrails: { input: [] } });
const request = { instructions: '', messages: [], tools: [] };
const at = { model, request } as never;

describe('the seam', () => {
  it('gives each agent the hooks of the features that take part in its turns', () => {
    const everyone: FeatureHooks = { afterModelCall: () => undefined };
    const onlyGuarded: FeatureHooks = {
      appliesTo: candidate => candidate.name === 'guarded',
      afterModelCall: () => undefined,
      beforeAnswer: () => Promise.resolve(undefined),
    };
    const seam = new Seam([named(everyone), named(onlyGuarded)]);
    expect(seam.forAgent(plain).afterModelCalls).toHaveLength(1);
    expect(seam.forAgent(plain).beforeAnswers).toHaveLength(0);
    expect(seam.forAgent(guarded).afterModelCalls).toHaveLength(2);
    // Gathered once per set: agents that take the same features share their hooks.
    expect(seam.forAgent(agent({ name: 'other', model }))).toBe(seam.forAgent(plain));
  });

  it("holds a model attempt without waiting unless a feature waits, in the features' order", async () => {
    const order: string[] = [];
    const hold = (name: string): ModelAttemptHold => ({ settle: () => order.push(name) });
    const sync = new Seam([named({ modelAttempt: () => hold('breaker') })]).forAgent(plain);
    const held = sync.holdModelAttempt(at);
    expect(held).not.toBeInstanceOf(Promise); // one feature: its hold, not an array
    settleHolds(held as Holds<ModelAttemptHold>, { error: new Error('x') });
    expect(order).toEqual(['breaker']);
    order.length = 0;

    const waiting = new Seam([
      named({ modelAttempt: () => Promise.resolve(hold('rate limit')) }),
      named({ modelAttempt: () => hold('breaker') }),
    ]).forAgent(plain);
    const holds = await waiting.holdModelAttempt(at);
    settleHolds(holds, { error: new Error('x') });
    expect(order).toEqual(['rate limit', 'breaker']);
  });

  it('asks the tool checks without a promise unless one of them waits', async () => {
    const check = { on: 'asked' as const, check: () => undefined };
    const response = {
      text: '',
      toolCalls: [],
      finishReason: 'stop',
      usage: { promptTokens: 0, completionTokens: 0 },
    } as never;
    const now = new Seam([
      named({ toolCheck: () => check }),
      named({ toolCheck: () => undefined }),
    ]).forAgent(plain);
    expect(now.checks({ response } as never)).toEqual([check]);
    const later = new Seam([named({ toolCheck: () => Promise.resolve(check) })]).forAgent(plain);
    const found = later.checks({ response } as never);
    expect(found).toBeInstanceOf(Promise);
    expect(await found).toEqual([check]);
  });

  it('names the tool calling modes it knows when an agent asks for another', () => {
    const seam = new Seam([]);
    expect(seam.toolCalling(plain).name).toBe('native');
    expect(() => seam.toolCalling(agent({ name: 'r', model, toolCalling: 'react' }))).toThrow(
      "Agent 'r' asks for tool calling 'react', which no feature of the run provides (known: native).",
    );
  });
});
