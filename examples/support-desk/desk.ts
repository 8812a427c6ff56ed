/**
 * The support desk: an agent with the shop's tools, its model scripted by rules (no key), and its
 * policies added to its instructions as a conversation brings their topics up.
 *
 * As a module the CLI reads (`agent-trace rerun traces/support-desk.jsonl --agent
 * examples/support-desk/desk.ts`), it exports the desk and the options its runs have: a rerun
 * needs the same features to decide again. `planted.ts` is the same desk with one policy changed.
 */
import { agent, type LanguageModel } from '@agent-trace/core';
import { standardFeatures } from '@agent-trace/core/features';
import { deskModel } from './desk-model.js';
import { shop } from './orders.js';
import { deskPolicies, policyNotes, type Policy } from './policies.js';

/** The desk's instructions before its policies. */
export const deskInstructions =
  'You are the support desk of a home-goods shop. Look orders up before you answer about them.';

/** A support desk over a fresh shop; `maxSteps` bounds each turn's model calls. */
export const supportDesk = (model: LanguageModel = deskModel(), maxSteps = 4) =>
  agent({
    name: 'support-desk',
    model,
    instructions: deskInstructions,
    tools: shop().tools,
    limits: { maxSteps },
  });

/** The features a run of the desk has: the standard ones and its policies. */
export const deskFeatures = (policies: Readonly<Record<string, Policy>> = deskPolicies) => [
  ...standardFeatures,
  policyNotes(policies),
];

export default supportDesk();
export const runOptions = { features: deskFeatures() };
