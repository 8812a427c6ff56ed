/**
 * A generated planned run as today's code: a planner whose scripted plans run the program's first
 * agent after a step that gathers items (or, first, a tool that fails), and the catalog its plans
 * may use.
 */
import { agent, tool, type AnyAgent } from '@agent-trace/core';
import type { PlanTarget } from '@agent-trace/trace';
import { fakeLLM } from '@agent-trace/testing';
import { z } from 'zod';
import type { PlanSpec } from './program.js';

/** A plan, as the planner writes it: its first step's tool, then the agent on what it gave. */
const planText = (name: string, first: string, entry: string): string => `workflow:
  name: ${name}
  steps:
    - name: gather
      tool: ${first}
      input: { topic: orders }
    - name: ask
      agent: ${entry}
      depends_on: [gather]
`;

/** The planner and its catalog: the program's agents, and the tools its plans name. */
export function buildPlan(spec: PlanSpec, agents: readonly AnyAgent[]): PlanTarget {
  const entry = (agents[0] as AnyAgent).name;
  const plans = [
    ...(spec.refusedFirst ? [planText('p-refused', 'summarize', entry)] : []),
    planText('p-first', spec.failing ? 'flaky_source' : 'gather_items', entry),
    planText('p-again', 'gather_items', entry),
  ];
  const tools = [
    tool({
      name: 'gather_items',
      description: 'Gathers the items on a topic',
      input: z.object({ topic: z.string() }),
      execute: ({ topic }) => ({ topic, items: [1, 2] }),
    }),
    tool({
      name: 'flaky_source',
      description: 'Gathers the items on a topic from a source that is down',
      input: z.object({ topic: z.string() }),
      execute: () => {
        throw new Error('the source is down');
      },
    }),
  ];
  return {
    planner: agent({
      name: 'chief',
      instructions: 'You plan the work.',
      model: fakeLLM(
        plans.map(text => ({ text })),
        { allowUnusedSteps: true, modelId: 'fake-planner' },
      ),
    }),
    tools,
    agents,
    maxPlans: 3,
    maxReplans: 1,
  };
}
