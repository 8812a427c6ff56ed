export {
  behaviourArbitrary,
  hostileStepArbitrary,
  reactTextArbitrary,
  toolCallArbitrary,
} from './arbitraries.js';
export { assertTerminates } from './assert-terminates.js';
export { formatBehaviour, stepAt } from './behaviour.js';
