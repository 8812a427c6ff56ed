export { behaviourArbitrary, hostileStepArbitrary, toolCallArbitrary } from './arbitraries.js';
export type { BehaviourVocabulary } from './arbitraries.js';
export { assertTerminates } from './assert-terminates.js';
export type {
  AssertTerminatesOptions,
  BuildAgent,
  ScriptedModels,
  TerminationBounds,
} from './assert-terminates.js';
export { formatBehaviour, stepAt } from './behaviour.js';
export type { Behaviour } from './behaviour.js';
