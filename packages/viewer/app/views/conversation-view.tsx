import type { RunModel } from '../model/run-model.js';

/** Props of {@link ConversationView}. */
export interface ConversationViewProps {
  /** The chosen run: a turn of the conversation shown. */
  readonly run: RunModel;
  /** Every run of the page: the conversation's other turns among them. */
  readonly runs: readonly RunModel[];
  /** Opens a turn's run in the waterfall. */
  readonly onOpen: (key: string) => void;
}

/**
 * A conversation as a transcript: each of the agent's turns, in order, as what the person said
 * and what the agent answered, each turn opening its run's waterfall. A simulated user's own runs
 * (its model calls) are not turns: they are left out.
 */
export function ConversationView({ run, runs, onOpen }: ConversationViewProps) {
  const id = run.turn?.conversation;
  const turns = runs
    .filter(each => each.turn !== undefined && each.turn.conversation === id && !each.turn.user)
    .sort((a, b) => (a.turn?.turn ?? 0) - (b.turn?.turn ?? 0) || a.startedAt - b.startedAt);
  return (
    <section class="transcript" aria-label="Transcript">
      <p class="muted">
        conversation {id} · {turns.length} turn{turns.length === 1 ? '' : 's'} on this page
      </p>
      <ol>
        {turns.map(each => (
          <li
            data-turn={each.turn?.turn}
            class={each.key === run.key ? 'turn chosen' : 'turn'}
            aria-current={each.key === run.key ? 'true' : undefined}
          >
            <div class="said">
              <span class="who">user</span> {each.turn?.said}
            </div>
            <div class={`answered status-${answerStatus(each)}`}>
              <span class="who">{each.entryAgent}</span> {answerText(each)}
            </div>
            <button type="button" class="link" onClick={() => onOpen(each.key)}>
              turn {each.turn?.turn} · {each.stopReason ?? 'running'} · waterfall
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** What a turn's agent answered, or why there is no answer. */
function answerText(run: RunModel): string {
  if (run.turn?.answered !== undefined && run.turn.answered !== '') return run.turn.answered;
  if (run.stopReason === undefined) return '(still answering)';
  return `(no answer: ${run.stopReason})`;
}

function answerStatus(run: RunModel): string {
  if (run.stopReason === undefined) return 'open';
  return run.stopReason === 'completed' ? 'ok' : 'error';
}
