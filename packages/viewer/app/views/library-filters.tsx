import { useEffect, useState } from 'preact/hooks';

/**
 * The runs a served library lists, as the server reads them: the names of `agent-trace runs`'
 * flags, each a text (or `error`, on or off).
 */
export interface LibraryFilter {
  readonly agent?: string;
  readonly tool?: string;
  readonly model?: string;
  readonly stop?: string;
  readonly error?: boolean;
  readonly session?: string;
  readonly since?: string;
  readonly minCost?: string;
  /** Milliseconds. */
  readonly minDuration?: string;
  readonly text?: string;
  readonly sort?: string;
}

/** The index's agents, tools, models and stop reasons, offered as the filters' choices. */
function useFacets(): Readonly<Record<string, readonly string[]>> {
  const [facets, setFacets] = useState<Readonly<Record<string, readonly string[]>>>({});
  useEffect(() => {
    fetch('/api/facets')
      .then(answer => answer.json() as Promise<Record<string, string[]>>)
      .then(setFacets)
      .catch(() => undefined);
  }, []);
  return facets;
}

/**
 * The filters of a served library's runs: who ran (agent), what was called (tool, model), how it
 * ended (stop reason, errors), when, how costly and long, the session, and words anywhere in its
 * inputs and outputs. A text field applies when it is left or Enter is pressed.
 */
export function LibraryFilters({
  filter,
  onFilter,
}: {
  readonly filter: LibraryFilter;
  readonly onFilter: (filter: LibraryFilter) => void;
}) {
  const facets = useFacets();
  const set = (name: keyof LibraryFilter) => (event: Event) =>
    onFilter({ ...filter, [name]: (event.currentTarget as HTMLInputElement).value });
  const named = (name: 'agent' | 'tool' | 'model', label: string) => (
    <>
      <input
        type="search"
        aria-label={label}
        placeholder={`${name}…`}
        list={`facet-${name}`}
        value={filter[name] ?? ''}
        onChange={set(name)}
      />
      <datalist id={`facet-${name}`}>
        {(facets[name] ?? []).map(value => (
          <option value={value} />
        ))}
      </datalist>
    </>
  );
  return (
    <div class="filters library-filters">
      <input
        type="search"
        aria-label="Text"
        placeholder="words in inputs and outputs…"
        value={filter.text ?? ''}
        onChange={set('text')}
      />
      {named('agent', 'Agent')}
      {named('tool', 'Tool')}
      {named('model', 'Model')}
      <select aria-label="Stop reason" value={filter.stop ?? ''} onChange={set('stop')}>
        <option value="">every stop reason</option>
        <option value="failed">failed (not completed)</option>
        {(facets.stop ?? []).map(reason => (
          <option value={reason}>{reason}</option>
        ))}
      </select>
      <select aria-label="Since" value={filter.since ?? ''} onChange={set('since')}>
        <option value="">any time</option>
        <option value="1h">last hour</option>
        <option value="1d">last day</option>
        <option value="7d">last 7 days</option>
        <option value="30d">last 30 days</option>
      </select>
      <input
        type="number"
        aria-label="Least cost"
        placeholder="cost ≥ $"
        min="0"
        step="any"
        value={filter.minCost ?? ''}
        onChange={set('minCost')}
      />
      <input
        type="number"
        aria-label="Least duration"
        placeholder="duration ≥ s"
        min="0"
        step="any"
        value={filter.minDuration === undefined ? '' : String(Number(filter.minDuration) / 1000)}
        onChange={event => {
          const seconds = event.currentTarget.value;
          onFilter({
            ...filter,
            minDuration: seconds === '' ? '' : String(Number(seconds) * 1000),
          });
        }}
      />
      <input
        type="search"
        aria-label="Session"
        placeholder="session…"
        value={filter.session ?? ''}
        onChange={set('session')}
      />
      <label>
        <input
          type="checkbox"
          checked={filter.error === true}
          onChange={event => onFilter({ ...filter, error: event.currentTarget.checked })}
        />{' '}
        with errors only
      </label>
      <select aria-label="Sort" value={filter.sort ?? 'time'} onChange={set('sort')}>
        <option value="time">latest first</option>
        <option value="cost">most expensive first</option>
        <option value="duration">longest first</option>
        <option value="tokens">most tokens first</option>
      </select>
    </div>
  );
}
