import { checkShape } from './harness/check-shape.js';
import { shape as agentAsTool } from './shapes/agent-as-tool.js';
import { shape as handoffChain } from './shapes/handoff-chain.js';
import { shape as severalRuns } from './shapes/several-runs.js';

for (const shape of [handoffChain, agentAsTool, severalRuns]) checkShape(shape);
