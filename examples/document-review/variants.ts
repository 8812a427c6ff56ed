import { fakeLLM } from '@agent-trace/testing';
import type { ModelFor } from './agents.js';

/**
 * The desk's scripts with a stricter guard: the same run up to the guard's answer, which blocks
 * instead of warning. Two runs to compare: `agent-trace diff` and the viewer's diff page.
 */
export const strictGuard: ModelFor = (agentName, script, modelId) =>
  fakeLLM(
    agentName === 'guard' && script[0] !== undefined
      ? [script[0], { text: 'block: similarity 0.31 is too close to the OpenTelemetry docs.' }]
      : script,
    { modelId },
  );
