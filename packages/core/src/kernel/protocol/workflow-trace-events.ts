/** The trace events of workflows and planning: part of the one `TraceEvent` schema. */
import { z } from 'zod';
import { envelope, TraceError } from './trace-envelope.js';

/** How a workflow step ran: a tool, an agent, or a person's approval. */
const workflowRuns = z.object({
  kind: z.enum(['tool', 'agent', 'approval']),
  /** The tool or agent; absent for an approval. */
  name: z.string().optional(),
});

/**
 * A workflow starts: its steps as declared. The envelope's `agent` is the workflow's name. A
 * workflow made by a planner carries the plan's revision (1 for the first plan).
 */
export const WorkflowStartEvent = z.object({
  ...envelope,
  event: z.literal('workflow_start'),
  workflow: z.string(),
  input: z.unknown(),
  steps: z.array(
    z.object({
      name: z.string(),
      runs: workflowRuns,
      depends_on: z.array(z.string()),
      condition: z.string().optional(),
      /** `false`: the step runs alone, not beside other steps (absent: it may). */
      parallel: z.boolean().optional(),
      /** The list the step runs once per item of, as written (`steps.clean.output`). */
      for_each: z.string().optional(),
    }),
  ),
  plan_revision: z.number().int().positive().optional(),
});

/** How a workflow step ended. */
const workflowStepStatus = z.enum(['completed', 'failed', 'skipped', 'interrupted']);

export const WorkflowEndEvent = z.object({
  ...envelope,
  event: z.literal('workflow_end'),
  workflow: z.string(),
  /** `failed` when a step failed, `interrupted` when one waits for a person. */
  status: z.enum(['completed', 'failed', 'interrupted', 'aborted']),
  /** How many steps ended each way. */
  steps: z.object({
    completed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
  }),
  output: z.unknown().optional(),
  error: TraceError.optional(),
  plan_revision: z.number().int().positive().optional(),
  duration_ms: z.number().nonnegative(),
});

/** A workflow step starts: what it runs, on what input (earlier outputs filled in). */
export const WorkflowStepStartEvent = z.object({
  ...envelope,
  event: z.literal('workflow_step_start'),
  workflow: z.string(),
  name: z.string(),
  runs: workflowRuns,
  input: z.unknown(),
  /** A `for_each` step: how many items run at once. */
  items: z.number().int().nonnegative().optional(),
});

export const WorkflowStepEndEvent = z.object({
  ...envelope,
  event: z.literal('workflow_step_end'),
  workflow: z.string(),
  name: z.string(),
  status: workflowStepStatus,
  output: z.unknown().optional(),
  error: TraceError.optional(),
  /** How many times it ran (a `for_each` step: the most any item took; 0 when skipped). */
  attempts: z.number().int().nonnegative(),
  /** Why it was skipped: its condition, or a dependency that did not complete. */
  reason: z.string().optional(),
  duration_ms: z.number().nonnegative(),
});

/**
 * A plan a planner agent proposed, checked: accepted and run as a workflow, or refused with the
 * problems the planner is told. `revision` counts the plans of the run, refused ones included.
 */
export const PlanEvent = z.object({
  ...envelope,
  event: z.literal('plan'),
  revision: z.number().int().positive(),
  /** The plan as the planner wrote it. */
  plan: z.unknown(),
  verdict: z.enum(['accepted', 'refused']),
  problems: z.array(z.string()).optional(),
  /** Why this plan was asked for: the first plan, a refused plan, or a failed step. */
  reason: z.enum(['request', 'refused_plan', 'step_failed']),
});
