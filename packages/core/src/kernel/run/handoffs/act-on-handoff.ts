import type { ResolvedHandoff } from '../../agent/handoff.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { AgentTurn } from '../turn/agent-turn.js';
import type { NextStep } from '../turn/next-step.js';
import { runHandoff, type HandoffResult } from './run-handoff.js';
import type { AgentRunner } from '../turn/agent-runner.js';

/** Takes the first handoff of the step; the others are answered "ignored". */
export async function* actOnHandoff(
  turn: AgentTurn,
  { call, ignored }: NonNullable<Extract<NextStep, { kind: 'run_tools' }>['handoff']>,
  runAgent: AgentRunner,
): AsyncGenerator<Chunk, void, undefined> {
  for (const other of ignored) {
    turn.conversation.append(
      turn.mode.resultMessage(
        other,
        `Ignored: only one handoff per turn, and '${call.toolName}' was taken.`,
        true,
      ),
    );
  }
  const handoff = turn.agent.handoffs().find(candidate => candidate.toolName === call.toolName);
  takeHandoffResult(
    turn,
    yield* runHandoff(handoffInput(turn, handoff as ResolvedHandoff, { call }, runAgent)),
  );
}

/** What a handoff from this turn runs with: the turn's agent, conversation, path and span. */
export function handoffInput(
  turn: AgentTurn,
  handoff: ResolvedHandoff,
  how: Pick<Parameters<typeof runHandoff>[0], 'call' | 'route'>,
  runAgent: AgentRunner,
): Parameters<typeof runHandoff>[0] {
  return {
    from: turn.agent,
    handoff,
    ...how,
    conversation: turn.conversation,
    resultMessage: turn.mode.resultMessage,
    path: turn.start.path,
    agentSpan: turn.agentSpan,
    state: turn.state,
    runAgent,
  };
}

/** Ends the turn with what came of a handoff; a refused one lets the turn go on. */
export function takeHandoffResult(turn: AgentTurn, result: HandoffResult): void {
  if (result.kind === 'refused') return;
  if (result.kind === 'stopped') {
    turn.stop(result);
    return;
  }
  const outcome = result.outcome;
  turn.handedOff = outcome;
  turn.stopReason = outcome.stopReason;
  turn.output = outcome.output;
  turn.error = outcome.error;
  turn.limit = outcome.limit;
  turn.detail = `handed off to '${outcome.agentName}'${outcome.detail === undefined ? '' : `: ${outcome.detail}`}`;
}
