import { importPeer } from '@agent-trace/core/util';

// The property helpers import the optional peer `fast-check`: check it first, for a clear error.
await importPeer(() => import('fast-check'), {
  peer: 'fast-check',
  needer: '@agent-trace/testing/property',
  range: '^4.3.0',
});
const property = await import('./property.js');

/** Runs an agent graph against generated hostile model behaviours and checks that it terminates. */
export const assertTerminates: typeof property.assertTerminates = property.assertTerminates;
/** Hostile behaviours: a finite prefix of steps plus a repeating tail. */
export const behaviourArbitrary: typeof property.behaviourArbitrary = property.behaviourArbitrary;
/** One hostile model step. */
export const hostileStepArbitrary: typeof property.hostileStepArbitrary =
  property.hostileStepArbitrary;
/** Hostile model text for an agent in ReAct mode. */
export const reactTextArbitrary: typeof property.reactTextArbitrary = property.reactTextArbitrary;
/** One tool call, well-formed or not. */
export const toolCallArbitrary: typeof property.toolCallArbitrary = property.toolCallArbitrary;
/** A behaviour as a pasteable `fakeLLM([...])`. */
export const formatBehaviour: typeof property.formatBehaviour = property.formatBehaviour;
/** The step a behaviour gives at a call. */
export const stepAt: typeof property.stepAt = property.stepAt;
export type { BehaviourVocabulary } from './arbitraries.js';
export type {
  AssertTerminatesOptions,
  BuildAgent,
  ScriptedModels,
  TerminationBounds,
} from './assert-terminates.js';
export type { Behaviour } from './behaviour.js';
