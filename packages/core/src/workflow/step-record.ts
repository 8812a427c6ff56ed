import { conditionHolds, evaluateCondition, stepsRead, type ConditionScope } from './condition.js';
import { expressionsIn, fillInput, parseInput, type ParsedInput } from './step-input.js';
import type { Workflow, WorkflowStep } from './workflow.js';

/** How a workflow step ended. `interrupted`: it waits for a person's approval. */
export type WorkflowStepStatus = 'completed' | 'failed' | 'skipped' | 'interrupted';

/** What a workflow step did: its status, output or error, and how many times it ran. */
export interface WorkflowStepRecord {
  readonly name: string;
  readonly status: WorkflowStepStatus;
  readonly output?: unknown;
  readonly error?: { readonly type: string; readonly message: string };
  /** How many times it ran (a `forEach` step: the most any item took); 0 when skipped. */
  readonly attempts: number;
  /** Why it was skipped. */
  readonly reason?: string;
}

/** What a step runs, as the trace records it: the kind, and the tool's or agent's name. */
export function tracedRuns(step: WorkflowStep): {
  kind: 'tool' | 'agent' | 'approval';
  name?: string;
} {
  return step.runs.kind === 'approval'
    ? { kind: 'approval' }
    : { kind: step.runs.kind, name: step.runs.name };
}

/** Whether a step runs, and on what: decided once its dependencies have ended. */
export type StepVerdict =
  | { readonly run: true; readonly input: unknown }
  | { readonly run: false; readonly reason: string }
  /** A dependency waits for a person: the step waits too, and has no record yet. */
  | { readonly run: false; readonly waits: true };

/** What a step's expressions need, worked out once per step: its parsed input, and the steps read. */
interface StepExpressions {
  readonly input: ParsedInput;
  /** The steps its condition, `forEach` and `${…}` input read. */
  readonly reads: readonly string[];
}

const expressionsByStep = new WeakMap<WorkflowStep, StepExpressions>();

function stepExpressions(step: WorkflowStep): StepExpressions {
  let known = expressionsByStep.get(step);
  if (known === undefined) {
    const input = parseInput(step.input);
    const expressions = expressionsIn(input);
    if (step.condition !== undefined) expressions.push(step.condition.parsed);
    if (step.forEach !== undefined) expressions.push(step.forEach.parsed);
    known = { input, reads: [...new Set(expressions.flatMap(stepsRead))] };
    expressionsByStep.set(step, known);
  }
  return known;
}

/**
 * What conditions and `${…}` inputs read: the ended steps' records as they are (each one's
 * status, output and error; `steps` read whole holds the steps `reads` names), and the workflow's
 * input.
 */
export function conditionScope(
  records: ReadonlyMap<string, WorkflowStepRecord>,
  input: unknown,
  reads: readonly string[],
): ConditionScope {
  return { steps: records, input, reads };
}

/**
 * Decides whether a step whose dependencies have ended runs. A step waits behind a dependency
 * that waits for approval. A dependency that did not complete skips it, unless it has a
 * condition: then the condition decides (`always` runs it anyway). Its input is filled in.
 */
export function stepVerdict(
  step: WorkflowStep,
  records: ReadonlyMap<string, WorkflowStepRecord>,
  input: unknown,
): StepVerdict {
  const dependencies = step.dependsOn.map(name => records.get(name));
  if (dependencies.some(record => record === undefined || record.status === 'interrupted'))
    return { run: false, waits: true };
  const scope = conditionScope(records, input, stepExpressions(step).reads);
  const unfinished = dependencies.find(record => record?.status !== 'completed');
  if (step.condition === undefined && unfinished !== undefined)
    return {
      run: false,
      reason: `dependency '${unfinished.name}' ${unfinished.status === 'failed' ? 'failed' : 'was skipped'}`,
    };
  if (step.condition !== undefined && !conditionHolds(step.condition.parsed, scope))
    return { run: false, reason: `its condition does not hold: ${step.condition.text}` };
  return { run: true, input: stepInput(step, records, input, scope) };
}

function stepInput(
  step: WorkflowStep,
  records: ReadonlyMap<string, WorkflowStepRecord>,
  input: unknown,
  scope: ConditionScope,
): unknown {
  if (step.forEach !== undefined) return evaluateCondition(step.forEach.parsed, scope);
  if (step.input !== undefined) return fillInput(stepExpressions(step).input, scope);
  if (step.dependsOn.length === 0) return input;
  if (step.dependsOn.length === 1) return records.get(step.dependsOn[0] as string)?.output ?? null;
  return Object.fromEntries(step.dependsOn.map(name => [name, records.get(name)?.output ?? null]));
}

/** How a workflow's steps wait for each other, by their positions in trace order. */
export interface StepGraph {
  /** The steps in trace order. */
  readonly order: readonly WorkflowStep[];
  /** Of each step: the steps that depend on it. */
  readonly dependents: readonly (readonly number[])[];
  /** Of each step: how many steps it depends on. */
  readonly waiting: readonly number[];
}

/** What a workflow's steps give every run alike, worked out once per list of steps. */
interface StepsShape extends StepGraph {
  /** The steps no other step depends on: the workflow's output is theirs. */
  readonly last: readonly WorkflowStep[];
}

// By the steps' list: a workflow's steps are read-only, as their own expressions' cache has it.
const shapes = new WeakMap<readonly WorkflowStep[], StepsShape>();

function stepsShape(steps: readonly WorkflowStep[]): StepsShape {
  let shape = shapes.get(steps);
  if (shape === undefined) {
    const needed = new Set(steps.flatMap(step => step.dependsOn));
    const order = ordered(steps);
    // By position in trace order: a step there has each of its dependencies there before it.
    const { dependents, waiting } = waits(order);
    shape = { order, dependents, waiting, last: steps.filter(step => !needed.has(step.name)) };
    shapes.set(steps, shape);
  }
  return shape;
}

/**
 * The workflow's steps in trace order, the order their events appear in the trace: each after its
 * dependencies, and otherwise as written (it does not depend on which step finished first); and
 * how they wait for each other.
 */
export function stepGraph(workflow: Workflow): StepGraph {
  return stepsShape(workflow.steps);
}

/**
 * Which steps wait for which, by position in `steps`: each step's dependents (in order), and how
 * many steps it waits for. A name no step has makes its step wait forever: workflow() and
 * loadWorkflow() refuse those.
 */
function waits(steps: readonly WorkflowStep[]): { dependents: number[][]; waiting: number[] } {
  const at = new Map(steps.map((step, position) => [step.name, position]));
  const dependents = steps.map((): number[] => []);
  const waiting = steps.map((step, position) => {
    const names = new Set(step.dependsOn);
    for (const name of names) dependents[at.get(name) ?? position]?.push(position);
    return names.size;
  });
  return { dependents, waiting };
}

function ordered(steps: readonly WorkflowStep[]): WorkflowStep[] {
  const { dependents, waiting } = waits(steps);
  // The ready steps, kept sorted by position: the first written goes first.
  const ready = steps.flatMap((_, position) => (waiting[position] === 0 ? [position] : []));
  const order: WorkflowStep[] = [];
  for (let next = ready.shift(); next !== undefined; next = ready.shift()) {
    order.push(steps[next] as WorkflowStep);
    for (const dependent of dependents[next] ?? []) {
      if (--(waiting[dependent] as number) > 0) continue;
      const at = ready.findIndex(position => position > dependent);
      ready.splice(at === -1 ? ready.length : at, 0, dependent);
    }
  }
  return order; // a cycle leaves steps out: workflow() and loadWorkflow() refuse those
}

/**
 * The workflow's output: the output of its last step (the one no other step depends on), or of
 * several such steps by name. Steps that did not complete give null.
 */
export function workflowOutput(
  workflow: Workflow,
  records: ReadonlyMap<string, WorkflowStepRecord>,
): unknown {
  const { last } = stepsShape(workflow.steps);
  const outputOf = (step: WorkflowStep) => records.get(step.name)?.output ?? null;
  if (last.length === 1) return outputOf(last[0] as WorkflowStep);
  return Object.fromEntries(last.map(step => [step.name, outputOf(step)]));
}
