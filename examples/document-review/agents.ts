import { agent, type Agent, type LanguageModel } from '@agent-trace/core';
import { maxLengthGuardrail } from '@agent-trace/core/guardrail';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { draft, revisedDraft } from './draft.js';
import { checkGrammar, countWords, findReferences, plagiarismCheck, scoreRubric } from './tools.js';

const usage = (promptTokens: number, completionTokens: number) => ({
  promptTokens,
  completionTokens,
});

/** Gives each agent its model: by default a FakeLLM playing the agent's script. */
export type ModelFor = (agentName: string, script: FakeLLMStep[], modelId: string) => LanguageModel;

const scripted: ModelFor = (_agentName, script, modelId) => fakeLLM(script, { modelId });

/**
 * A document-review desk, scripted with FakeLLM so it runs without an API key (pass
 * `modelFor` to run it on a real provider):
 * - `coordinator` (entry) asks `style` and `references` in one parallel turn, then `drafting`
 *   and `guard` (agents used as tools), and hands the result to `evaluator` (a handoff);
 * - `drafting` sends one malformed tool call, is told what was wrong, and corrects it;
 * - the coordinator's input guardrail warns that the request is long.
 */
export function reviewDesk(modelFor: ModelFor = scripted): Agent {
  const style = agent({
    name: 'style',
    description: 'Grammar and style of a draft',
    instructions: 'Check the grammar and style of the draft; list the fixes.',
    model: modelFor(
      'style',
      [
        { toolCalls: [{ name: 'check_grammar', args: { text: draft } }], usage: usage(96, 21) },
        { text: "Fix the doubled word 'Every' and the double space.", usage: usage(140, 14) },
      ],
      'gpt-4o-mini',
    ),
    tools: [checkGrammar],
  });
  const references = agent({
    name: 'references',
    description: 'References for the topic of a draft',
    instructions: 'Find references for the draft; say which to cite.',
    model: modelFor(
      'references',
      [
        {
          toolCalls: [{ name: 'find_references', args: { topic: 'tracing' } }],
          usage: usage(88, 12),
        },
        {
          text: 'Cite the W3C Trace Context and the OpenTelemetry GenAI conventions.',
          usage: usage(131, 17),
        },
      ],
      'gpt-4o-mini',
    ),
    tools: [findReferences],
  });
  const drafting = agent({
    name: 'drafting',
    description: 'Applies edits to a draft',
    instructions: 'Apply the requested edits to the draft, keep the headings, check the length.',
    model: modelFor(
      'drafting',
      [
        { toolCalls: [{ name: 'count_words', args: { text: 42 } }], usage: usage(152, 10) },
        {
          toolCalls: [{ name: 'count_words', args: { text: revisedDraft } }],
          usage: usage(190, 30),
        },
        { text: revisedDraft, usage: usage(214, 33) },
      ],
      'gpt-4o',
    ),
    tools: [countWords],
  });
  const guard = agent({
    name: 'guard',
    description: 'Checks a draft for plagiarism',
    instructions:
      'Check the draft for plagiarism: similarity 0.28–0.4 is a warning, above 0.4 a block.',
    model: modelFor(
      'guard',
      [
        {
          toolCalls: [{ name: 'plagiarism_check', args: { text: revisedDraft } }],
          usage: usage(120, 16),
        },
        {
          text: 'warn: similarity 0.31 with the OpenTelemetry docs; the citation covers it.',
          usage: usage(151, 19),
        },
      ],
      'gpt-4o-mini',
    ),
    tools: [plagiarismCheck],
  });
  const evaluator = agent({
    name: 'evaluator',
    description: 'Scores the final draft against the rubric',
    instructions: 'Score the final draft against the rubric and give the verdict.',
    model: modelFor(
      'evaluator',
      [
        {
          toolCalls: [{ name: 'score_rubric', args: { text: revisedDraft } }],
          usage: usage(260, 18),
        },
        {
          text: `Score 8/10: clear and cited. Final draft: ${revisedDraft}`,
          usage: usage(301, 52),
        },
      ],
      'gpt-4o',
    ),
    tools: [scoreRubric],
  });
  return agent({
    name: 'coordinator',
    instructions:
      'Route the draft to the style, references, drafting and guard agents, then hand it to the evaluator.',
    model: modelFor(
      'coordinator',
      [
        {
          text: 'Asking style and references in parallel.',
          toolCalls: [
            { name: 'ask_style', args: { input: draft } },
            { name: 'ask_references', args: { input: 'Topic: tracing agents' } },
          ],
          usage: usage(210, 44),
        },
        {
          toolCalls: [
            {
              name: 'ask_drafting',
              args: {
                input: `Apply: fix 'Every every' and the double space; cite W3C Trace Context and the GenAI conventions. Draft: ${draft}`,
              },
            },
          ],
          usage: usage(330, 61),
        },
        {
          toolCalls: [{ name: 'ask_guard', args: { input: revisedDraft } }],
          usage: usage(402, 38),
        },
        { toolCalls: [{ name: 'transfer_to_evaluator' }], usage: usage(455, 9) },
      ],
      'gpt-4o',
    ),
    tools: [style.asTool(), references.asTool(), drafting.asTool(), guard.asTool()],
    handoffs: [evaluator],
    guardrails: { input: [maxLengthGuardrail({ maxTokens: 20, action: 'warn' })] },
  });
}

/** The entry agent of the desk, for `agent-trace rerun --agent`. */
export default reviewDesk();
