import { useState } from 'preact/hooks';
import type { RunModel } from '../model/run-model.js';
import { DatasetAdder, type AddToDataset } from './dataset-adder.js';

/** A feedback as the page posts it (the server records it into the run's file). */
export interface FeedbackDraft {
  readonly score?: number;
  readonly label?: string;
  readonly comment?: string;
  readonly by?: string;
}

/** Sends a feedback on a run; rejects with the server's words. */
export type SendFeedback = (run: RunModel, draft: FeedbackDraft) => Promise<void>;

/** What a served page may write: feedback, and (a library served with datasets) dataset cases. */
export interface PageWrites {
  readonly feedback: SendFeedback;
  readonly dataset?: AddToDataset;
}

/**
 * A run's feedback: what people said of it, and, on a served page that may record it, thumbs, a
 * label and a comment to give more, and "Add to dataset". A run not ended yet takes none.
 */
export function FeedbackPanel({ run, writes }: { run: RunModel; writes?: PageWrites }) {
  const given = run.feedback ?? [];
  const send = writes?.feedback;
  if (given.length === 0 && send === undefined) return null;
  return (
    <section class="feedback" aria-label="Feedback">
      {given.length === 0 ? null : (
        <ul class="feedback-given">
          {given.map(feedback => (
            <li key={feedback.id} title={new Date(feedback.at).toISOString()}>
              {feedback.text}
            </li>
          ))}
        </ul>
      )}
      {send === undefined ? null : run.stopReason === undefined ? (
        <p class="muted">Feedback is taken once the run has ended.</p>
      ) : (
        <FeedbackForm key={run.key} run={run} send={send} />
      )}
      {writes?.dataset === undefined ? null : (
        <DatasetAdder key={`${run.key}/dataset`} run={run} add={writes.dataset} />
      )}
    </section>
  );
}

function FeedbackForm({ run, send }: { run: RunModel; send: SendFeedback }) {
  const [score, setScore] = useState<number | undefined>(undefined);
  const [label, setLabel] = useState('');
  const [comment, setComment] = useState('');
  const [by, setBy] = useState('');
  const [said, setSaid] = useState<string | undefined>(undefined);
  const submit = (event: Event): void => {
    event.preventDefault();
    const draft: FeedbackDraft = {
      ...(score === undefined ? {} : { score }),
      ...(label.trim() === '' ? {} : { label: label.trim() }),
      ...(comment.trim() === '' ? {} : { comment: comment.trim() }),
      ...(by.trim() === '' ? {} : { by: by.trim() }),
    };
    setSaid('Sending…');
    send(run, draft).then(
      () => {
        setSaid('Feedback recorded in the trace.');
        setScore(undefined);
        setLabel('');
        setComment('');
      },
      (error: Error) => setSaid(error.message),
    );
  };
  const thumb = (value: number, name: string, mark: string) => (
    <button
      type="button"
      aria-label={name}
      aria-pressed={score === value}
      onClick={() => setScore(score === value ? undefined : value)}
    >
      {mark}
    </button>
  );
  return (
    <form class="feedback-form" onSubmit={submit}>
      {thumb(1, 'Thumbs up', '👍')}
      {thumb(-1, 'Thumbs down', '👎')}
      <input
        aria-label="Label"
        placeholder="label"
        value={label}
        onInput={e => setLabel(e.currentTarget.value)}
      />
      <input
        aria-label="Comment"
        placeholder="comment"
        value={comment}
        onInput={e => setComment(e.currentTarget.value)}
      />
      <input
        aria-label="By"
        placeholder="by"
        value={by}
        onInput={e => setBy(e.currentTarget.value)}
      />
      <button type="submit">Send feedback</button>
      {said === undefined ? null : <span role="status">{said}</span>}
    </form>
  );
}
