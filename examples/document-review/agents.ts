import { agent, type Agent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { draft } from './draft.js';
import { checkGrammar, countWords, findReferences } from './tools.js';

/**
 * The review desk's agent, scripted with FakeLLM so the demo needs no API key: it checks grammar
 * and looks up references in one parallel turn, sends a malformed call (and is told what was
 * wrong), corrects it, and writes its review.
 */
export function reviewer(): Agent {
  return agent({
    name: 'reviewer',
    instructions:
      'You review drafts. Check grammar, find references for the topic, count the words, then write a short review.',
    model: fakeLLM(
      [
        {
          text: 'Checking grammar and references first.',
          toolCalls: [
            { name: 'check_grammar', args: { text: draft } },
            { name: 'find_references', args: { topic: 'tracing' } },
          ],
          usage: { promptTokens: 182, completionTokens: 41 },
        },
        {
          toolCalls: [{ name: 'count_words', args: { text: 42 } }],
          usage: { promptTokens: 305, completionTokens: 12 },
        },
        {
          toolCalls: [{ name: 'count_words', args: { text: draft } }],
          usage: { promptTokens: 351, completionTokens: 18 },
        },
        {
          text: "Review: fix the doubled word 'Every' and the double space. 14 words; cite the W3C Trace Context and the OpenTelemetry GenAI conventions.",
          usage: { promptTokens: 377, completionTokens: 36 },
        },
      ],
      { modelId: 'gpt-4o-mini' },
    ),
    tools: [checkGrammar, findReferences, countWords],
    limits: { maxSteps: 6 },
  });
}

export default reviewer;
