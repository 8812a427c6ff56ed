/**
 * What a waterfall row stands for: a span (run, agent, model call, tool call, handoff, workflow,
 * step, or a plain span of another system) or a point event. Shared by the page and the served
 * viewer's outline, which sends each row's kind as its position in {@link rowKinds}.
 */
export type RowKind =
  | 'run'
  | 'agent'
  | 'llm'
  | 'tool'
  | 'handoff'
  | 'guardrail'
  | 'retry'
  | 'malformed_answer'
  | 'approval'
  | 'rate_limit_wait'
  | 'workflow'
  | 'step'
  | 'plan'
  | 'span'
  | 'feature'
  | 'transform';

/** Every row kind; a kind's code in an outline is its position here. */
export const rowKinds: readonly RowKind[] = [
  'run',
  'agent',
  'llm',
  'tool',
  'handoff',
  'guardrail',
  'retry',
  'malformed_answer',
  'approval',
  'rate_limit_wait',
  'workflow',
  'step',
  'plan',
  'span',
  'feature',
  'transform',
];

/** The row kinds of point events: markers on the waterfall, not bars. */
export const pointKinds: ReadonlySet<RowKind> = new Set([
  'guardrail',
  'retry',
  'malformed_answer',
  'approval',
  'rate_limit_wait',
  'plan',
  'feature',
  'transform',
]);

const spanKinds: Readonly<Record<string, RowKind>> = {
  run_start: 'run',
  agent_start: 'agent',
  llm_start: 'llm',
  tool_start: 'tool',
  handoff_start: 'handoff',
  workflow_start: 'workflow',
  workflow_step_start: 'step',
  span_start: 'span',
};

/** The kind of row an event opens: its span's kind, or the kind of point event it is. */
export function rowKindOf(event: string): RowKind {
  const span = spanKinds[event];
  if (span !== undefined) return span;
  if (event === 'approval_requested' || event === 'approval_resolved') return 'approval';
  if (
    event === 'rate_limit_wait' ||
    event === 'plan' ||
    event === 'feature' ||
    event === 'transform'
  )
    return event;
  return event === 'retry' || event === 'malformed_answer' ? event : 'guardrail';
}
