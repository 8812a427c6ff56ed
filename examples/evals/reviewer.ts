import { agent, type LanguageModel, type Message, type ModelRequest } from '@agent-trace/core';
import { fakeLLM, type FakeScriptedStep } from '@agent-trace/testing';
import { checkGrammar, findReferences } from '../document-review/tools.js';

/** What the desk is asked: a draft, and the topic to find references for when there is one. */
export interface ReviewInput {
  readonly draft: string;
  readonly topic?: string;
}

/** The request the desk reads. */
export function reviewRequest({ draft, topic }: ReviewInput): string {
  return topic === undefined
    ? `Review this draft:\n${draft}`
    : `Topic: ${topic}\nReview this draft:\n${draft}`;
}

/**
 * A stand-in for a model, so the example runs without a key: it follows the desk's instructions
 * the way a careful model would (it calls the tools its instructions name, in their order, and
 * answers from what they returned). Change the instructions and its trajectory changes, as a real
 * model's would: that is what the eval measures. Pass `openai('gpt-4o-mini')` to run it for real.
 */
export function instructedReviewer(): LanguageModel {
  const step = (request: ModelRequest): FakeScriptedStep => {
    const asked = request.messages.find(message => message.role === 'user');
    const input = textOf(asked);
    const draft = input.slice(
      input.indexOf('Review this draft:\n') + 'Review this draft:\n'.length,
    );
    const topic = /^Topic: (.+)$/m.exec(input)?.[1];
    const results = request.messages.filter(message => message.role === 'tool');
    const usage = {
      promptTokens: 120 + Math.round(input.length / 4) + results.length * 40,
      completionTokens: 24,
    };
    const wantsReferences = request.instructions.includes('find_references') && topic !== undefined;
    if (results.length === 0)
      return { toolCalls: [{ name: 'check_grammar', args: { text: draft } }], usage };
    if (results.length === 1 && wantsReferences)
      return { toolCalls: [{ name: 'find_references', args: { topic } }], usage };
    const [grammar, references] = results.map(
      result => JSON.parse(textOf(result)) as Record<string, string[]>,
    );
    const fixes = grammar?.issues ?? [];
    const cite = references?.references ?? [];
    return {
      text: `Fixes: ${fixes.length === 0 ? 'none' : fixes.join('; ')}\nCite: ${cite.length === 0 ? 'none' : cite.join('; ')}`,
      usage,
    };
  };
  // A desk runs once per case: three calls at most, one step each.
  return fakeLLM([step, step, step], {
    modelId: 'instructed-reviewer',
    allowUnusedSteps: true,
  });
}

function textOf(message: Message | undefined): string {
  return message?.content ?? '';
}

/** The review desk: one agent with a grammar checker and a reference library. */
export function reviewDesk(instructions: string, model: LanguageModel = instructedReviewer()) {
  return agent({
    name: 'reviewer',
    instructions,
    model,
    tools: [checkGrammar, findReferences],
    limits: { maxSteps: 6 },
  });
}
