import { useState } from 'preact/hooks';
import type { RunModel } from '../model/run-model.js';

/** Adds a run to a dataset of the server's datasets folder; resolves to what happened, in words. */
export type AddToDataset = (run: RunModel, dataset: string) => Promise<string>;

/** "Add to dataset": a finished run of a served library becomes a case of the dataset named. */
export function DatasetAdder({ run, add }: { run: RunModel; add: AddToDataset }) {
  const [name, setName] = useState('');
  const [said, setSaid] = useState<string | undefined>(undefined);
  if (run.stopReason === undefined) return null;
  const submit = (event: Event): void => {
    event.preventDefault();
    setSaid('Adding…');
    add(run, name.trim()).then(setSaid, (error: Error) => setSaid(error.message));
  };
  return (
    <form class="feedback-form dataset-adder" onSubmit={submit}>
      <input
        aria-label="Dataset"
        placeholder="dataset, e.g. refunds"
        value={name}
        onInput={event => setName(event.currentTarget.value)}
      />
      <button type="submit" disabled={name.trim() === ''}>
        Add to dataset
      </button>
      {said === undefined ? null : <span role="status">{said}</span>}
    </form>
  );
}
