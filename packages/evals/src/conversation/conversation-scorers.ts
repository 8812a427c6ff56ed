import type { Score, Scorer, ScorerInput } from '../scorer.js';
import type { ConverseResult } from './converse.js';

/** A case's output as a conversation (what `converse` gives); a clear error otherwise. */
export function conversed(name: string, output: unknown): ConverseResult<unknown> {
  const held = output as Partial<ConverseResult<unknown>> | undefined;
  if (held !== undefined && Array.isArray(held.transcript) && Array.isArray(held.turns))
    return held as ConverseResult<unknown>;
  throw new Error(
    `Scorer '${name}' reads a conversation: the task must return what converse() gives (a conversationTask does).`,
  );
}

/** A scorer of a conversation from a function of it. */
function ofConversation(name: string, score: (held: ConverseResult<unknown>) => Score): Scorer {
  return { name, score: ({ output }) => score(conversed(name, output)) };
}

/** Reads `stopReason`: 1 when the user's goal was reached, else 0 with how it ended. */
export function goalReached(name = 'goal_reached'): Scorer {
  return ofConversation(name, ({ stopReason, turns }) =>
    stopReason === 'goal_reached'
      ? { score: 1, reason: `goal reached in ${turns.length} turns` }
      : { score: 0, reason: `the conversation ended ${stopReason.replaceAll('_', ' ')}` },
  );
}

/**
 * Reads `stopReason` and the turns: reached in t of `maxTurns` turns scores (maxTurns − t + 1) /
 * maxTurns (1 for one turn); not reached, 0.
 */
export function turnsToResolution({ maxTurns = 8, name = 'turns_to_resolution' } = {}): Scorer {
  return ofConversation(name, ({ stopReason, turns }) => {
    if (stopReason !== 'goal_reached') return { score: 0, reason: 'not resolved' };
    const score = Math.max(0, (maxTurns - turns.length + 1) / maxTurns);
    return { score, reason: `resolved in ${turns.length} of at most ${maxTurns} turns` };
  });
}

/** Reads every turn's tool calls: the share that did not fail (1 when there were none). */
export function conversationToolSuccess(name = 'conversation_tool_success'): Scorer {
  return ofConversation(name, ({ turns }) => {
    const calls = turns.flatMap(turn => turn.toolCalls);
    if (calls.length === 0) return { score: 1, reason: 'no tool calls' };
    const ok = calls.filter(call => call.error === undefined).length;
    return { score: ok / calls.length, reason: `${ok} of ${calls.length} tool calls succeeded` };
  });
}

/** A question as compared: lower case, letters and digits only, spaces collapsed. */
const asked = (text: string): string[] =>
  text
    .split(/(?<=\?)/)
    .filter(part => part.includes('?'))
    .map(part =>
      part
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim(),
    );

/**
 * Reads the agent's lines of the transcript: the share of its questions not asked before (the
 * agent asking again for what it was told). 1 when it asked nothing twice.
 */
export function askedAgain(name = 'asked_again'): Scorer {
  return ofConversation(name, ({ transcript }) => {
    const seen = new Set<string>();
    let questions = 0;
    let again = 0;
    for (const entry of transcript) {
      if (entry.role !== 'agent') continue;
      for (const question of asked(entry.text)) {
        questions++;
        if (seen.has(question)) again++;
        seen.add(question);
      }
    }
    return questions === 0
      ? { score: 1, reason: 'the agent asked no question' }
      : { score: 1 - again / questions, reason: `${again} of ${questions} questions asked again` };
  });
}

/**
 * A scorer of one run, over a conversation's turns: the mean of its score on each agent turn
 * (the turn's result, its output and its events), named `<scorer>_per_turn`.
 */
export function perTurn(scorer: Scorer): Scorer {
  const name = `${scorer.name}_per_turn`;
  return {
    name,
    async score(input: ScorerInput) {
      const { turns } = conversed(name, input.output);
      if (turns.length === 0) return { score: 0, reason: 'no turns' };
      const scores: Score[] = [];
      for (const turn of turns)
        scores.push(
          await scorer.score({
            ...input,
            output: turn.output,
            result: turn,
            trace: input.trace.filter(event => event.run === turn.runId),
          }),
        );
      const mean = scores.reduce((sum, each) => sum + each.score, 0) / scores.length;
      // The first turn of the lowest score.
      const low = scores.reduce(
        (at, each, index) => (each.score < (scores[at]?.score ?? 1) ? index : at),
        0,
      );
      return {
        score: mean,
        reason: `mean of ${scores.length} turns; lowest, turn ${low + 1}: ${scores[low]?.reason ?? ''}`,
      };
    },
  };
}
