/**
 * P4: a change planted in a generated program diverges at the first event it affects, and the
 * words name it. Code changes are planted in the entry agent and checked on the recording's first
 * run; a changed turn of the conversation is planted in the history the second run reruns from.
 */
import type { TraceEvent } from '@agent-trace/core';
import { formatDivergence, Recording, rerunTrace, type Divergence } from '@agent-trace/trace';
import { buildProgram, rerunBuild, type PlantedChange } from './build-program.js';
import { programRunOptions, scrubMarks } from './program-options.js';
import type { Program } from './program.js';

/**
 * Where a change to a decision first shows: the entry agent's first breaker refusal, its
 * guardrail's first warning, its second model call (a step limit of one). Undefined when the
 * recorded run has none (or the change shows at the entry's first model call).
 */
function decisionAt(
  change: PlantedChange,
  entry: string,
  events: readonly TraceEvent[],
): TraceEvent | undefined {
  if (change === 'breaker threshold')
    return events.find(
      event =>
        event.agent === entry &&
        (event.event === 'tool_end' || event.event === 'llm_end') &&
        event.error?.type === 'circuit_open',
    );
  if (change === 'guardrail action')
    return events.find(
      event => event.agent === entry && event.event === 'guardrail' && event.verdict === 'warn',
    );
  if (change === 'feature option')
    // The call the quota refused, in the quota's own name and kind, or the quota's own word that
    // it was used up, written as the round that went past it was checked: whichever came first.
    return events.find(
      event =>
        (event.event === 'tool_end' && event.error?.feature === 'tool-quota') ||
        (event.event === 'feature' && event.feature === 'tool-quota'),
    );
  if (change === 'request rewrite')
    // The first request the scrub changed: its new messages hold the scrub's mark.
    return events.find(
      event =>
        event.event === 'llm_start' &&
        event.messages.some(
          message => message.role === 'tool' && message.content.includes(scrubMarks.recorded),
        ),
    );
  if (change === 'step limit') {
    const second = events.find(
      event => event.agent === entry && event.event === 'llm_start' && event.step === 2,
    );
    // A call the breaker refused sent no request: its refusal is what the comparison sees.
    const refused = events.find(
      event =>
        event.event === 'llm_end' &&
        event.span_id === second?.span_id &&
        event.error?.type === 'circuit_open',
    );
    return refused ?? second;
  }
  return undefined;
}

/** The changes that show in `program`'s recorded run: at its entry's first model call, or later. */
function plantable(program: Program, events: readonly TraceEvent[]): PlantedChange[] {
  const entry = program.agents[0];
  if (entry === undefined) return [];
  const called = events.some(
    event => event.event === 'llm_start' && event.agent === entry.name && event.step === 1,
  );
  if (!called) return [];
  const changes: PlantedChange[] = ['instructions', 'model name', 'model setting'];
  const first = entry.tools[0];
  if (first !== undefined) changes.push('tool description', 'tool removed');
  if (first?.schema === 'default') changes.push('schema default');
  const decisions = ['breaker threshold', 'guardrail action', 'step limit', 'request rewrite'];
  for (const decision of decisions as readonly PlantedChange[])
    if (decisionAt(decision, entry.name, events) !== undefined) changes.push(decision);
  // A raised quota runs a call the recording refused. In a run stopped from outside, that call
  // has no recorded answer and waits for the stop, which cuts the calls beside it: the change
  // shows at that round of calls, not at the refusal itself.
  const stopped =
    program.abortAtCall !== undefined ||
    program.stopReadingAfter !== undefined ||
    program.timeoutMs !== undefined;
  if (!stopped && decisionAt('feature option', entry.name, events) !== undefined)
    changes.push('feature option');
  return changes;
}

const words: Record<PlantedChange, RegExp> = {
  instructions: /the instructions/,
  'model name': /the model: .*fake-model-2|fake-model-2/,
  'model setting': /temperature/,
  'tool description': /description/,
  'tool removed': /the tool list/,
  'schema default': /schema: .*default: 5 → 6/,
  'step limit': /max_steps/,
  'breaker threshold': /fails: circuit_open/,
  'guardrail action': /says block/,
  'feature option':
    /refused by feature 'tool-quota' \(quota_exceeded\)|feature event tool-quota\.used_up/,
  'request rewrite': new RegExp(scrubMarks.planted),
};

/** True when the divergence is at the recorded decision `step` (the recording's side of it). */
function atDecision(step: TraceEvent, first: Divergence): boolean {
  if (step.event === 'guardrail' && first.kind === 'extra')
    // The rerun's block, where the recording's warning was (which then shows as missing).
    return (
      first.actual?.startsWith(`guardrail '${step.guardrail}' (${step.stage}) says block`) === true
    );
  if (first.kind === 'extra' || first.expected === undefined) return false;
  if (step.event === 'guardrail')
    return first.expected.startsWith(
      `guardrail '${step.guardrail}' (${step.stage}) says ${step.verdict}`,
    );
  if (step.event === 'llm_start')
    return first.expected.startsWith(`model call ${step.step} of '${step.agent}'`);
  // A feature's decision shows at its refusal or at its own word about it, whichever the rerun
  // parts from first.
  const feature =
    step.event === 'feature'
      ? step.feature
      : step.event === 'tool_end'
        ? step.error?.feature
        : undefined;
  if (feature !== undefined)
    return (
      first.expected.includes(`refused by feature '${feature}'`) ||
      first.expected.startsWith(`feature event ${feature}.`)
    );
  return first.expected.includes('circuit_open');
}

/** The texts a divergence says: both sides and how a request changed. */
const saidBy = (first: Divergence): (string | undefined)[] => [
  first.expected,
  first.actual,
  first.instead,
  ...(first.explanation ?? []).map(change => change.summary),
];

/** A code change planted in the entry: it diverges where it first shows, naming the change. */
async function checkChange(
  program: Program,
  file: string,
  runId: string,
  change: PlantedChange,
): Promise<string | undefined> {
  const option = change === 'feature option' || change === 'request rewrite' ? change : undefined;
  const code = option === undefined ? change : undefined;
  const report = await rerunTrace(file, buildProgram(program, rerunBuild(program, file, code)), {
    runId,
    run: programRunOptions(program, option),
  });
  const first = report.firstDivergence;
  if (first === undefined) return `P4 (${change}): the rerun says same`;
  const event = (first.kind === 'missing' ? report.recorded : report.rerun).find(
    each => each.seq === first.seq,
  );
  // A priced program near its cost limit: a longer request (instructions, a tool) can cost past
  // the limit, and the rerun stops there for the budget, before the changed call is sent.
  if (
    program.budget !== undefined &&
    saidBy(first).some(text => text?.includes('stops: budget_exceeded'))
  )
    return undefined;
  const entry = program.agents[0]?.name ?? '';
  const decision = decisionAt(change, entry, report.recorded);
  const at =
    decision === undefined
      ? event?.event === 'llm_start' && event.agent === entry && event.step === 1
      : atDecision(decision, first);
  if (!at)
    return `P4 (${change}): the first divergence is not where the change first shows (${decision === undefined ? "the entry's first model call" : `seq ${decision.seq}`}):\n${formatDivergence(first)}`;
  if (!saidBy(first).some(text => text !== undefined && words[change].test(text)))
    return `P4 (${change}): the words do not name the change:\n${formatDivergence(first)}`;
  return undefined;
}

/** The first model call of `events` whose request was sent (not refused before it was). */
function firstSent(events: readonly TraceEvent[]): TraceEvent | undefined {
  const refused = new Set(
    events.flatMap(event =>
      event.event === 'llm_end' && event.error?.type === 'circuit_open' ? [event.span_id] : [],
    ),
  );
  return events.find(event => event.event === 'llm_start' && !refused.has(event.span_id));
}

/**
 * A changed turn of the conversation: the second run rerun from a history whose first user
 * message says something else diverges at its first model call, naming that message.
 */
async function checkTurn(
  program: Program,
  file: string,
  events: readonly TraceEvent[],
  runId: string,
): Promise<string | undefined> {
  const recording = new Recording(events, runId);
  // The first request sent: one a breaker refused (kept open by an earlier turn) sent nothing.
  const at = firstSent(recording.events);
  const asked = recording.history.findIndex(message => message.role === 'user');
  if (at === undefined || asked < 0) return undefined;
  const history = recording.history.map((message, index) =>
    index === asked ? { role: 'user' as const, content: 'I changed my mind.' } : message,
  );
  const report = await rerunTrace(file, buildProgram(program, rerunBuild(program, file)), {
    runId,
    run: { ...programRunOptions(program), history },
  });
  const first = report.firstDivergence;
  if (first === undefined) return 'P4 (conversation turn): the rerun says same';
  const rerunAt = firstSent(report.rerun);
  if (first.kind !== 'changed' || first.seq !== rerunAt?.seq)
    return `P4 (conversation turn): the first divergence is not the second run's first model call (seq ${at.seq} recorded):\n${formatDivergence(first)}`;
  if (!saidBy(first).some(text => text?.includes(`message ${asked + 1} (user)`) === true))
    return `P4 (conversation turn): the words do not name the message:\n${formatDivergence(first)}`;
  return undefined;
}

/** P4 on a recording: each code change that shows in its first run, then a changed turn. */
export async function checkChanges(
  program: Program,
  file: string,
  runs: readonly string[],
  events: readonly TraceEvent[],
): Promise<string | undefined> {
  const [runId, second] = runs;
  if (runId === undefined) return undefined;
  const firstRun = events.filter(event => event.run === runId);
  for (const change of plantable(program, firstRun)) {
    const found = await checkChange(program, file, runId, change);
    if (found !== undefined) return found;
  }
  return second === undefined ? undefined : checkTurn(program, file, events, second);
}
