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

/** The index's agents, tools, models, stop reasons and conversations, offered as the filters' choices. */
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
 * A text field that keeps what is typed until it is applied (left, or Enter): the page redraws as
 * runs arrive, and a field showing only the applied filter would lose the typing.
 */
function Field({
  value,
  onApply,
  ...attributes
}: {
  readonly value: string;
  readonly onApply: (value: string) => void;
  readonly type: 'search' | 'number';
  readonly 'aria-label': string;
  readonly placeholder: string;
  readonly list?: string;
  readonly min?: string;
  readonly step?: string;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <input
      {...attributes}
      value={draft}
      onInput={event => setDraft(event.currentTarget.value)}
      onChange={event => onApply(event.currentTarget.value)}
    />
  );
}

/** Applies one filter field's value. */
type Apply = (name: keyof LibraryFilter) => (value: string) => void;

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
  const apply: Apply = name => value => onFilter({ ...filter, [name]: value });
  const named = (name: 'agent' | 'tool' | 'model', label: string) => (
    <>
      <Field
        type="search"
        aria-label={label}
        placeholder={`${name}…`}
        list={`facet-${name}`}
        value={filter[name] ?? ''}
        onApply={apply(name)}
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
      <Field
        type="search"
        aria-label="Text"
        placeholder="words in inputs and outputs…"
        value={filter.text ?? ''}
        onApply={apply('text')}
      />
      {named('agent', 'Agent')}
      {named('tool', 'Tool')}
      {named('model', 'Model')}
      <select
        aria-label="Stop reason"
        value={filter.stop ?? ''}
        onChange={event => apply('stop')(event.currentTarget.value)}
      >
        <option value="">every stop reason</option>
        <option value="failed">failed (not completed)</option>
        {(facets.stop ?? []).map(reason => (
          <option value={reason}>{reason}</option>
        ))}
      </select>
      <Conversations
        choices={facets.conversation ?? []}
        session={filter.session ?? ''}
        onChoose={apply('session')}
      />
      <Measures filter={filter} apply={apply} />
      <label>
        <input
          type="checkbox"
          checked={filter.error === true}
          onChange={event => onFilter({ ...filter, error: event.currentTarget.checked })}
        />{' '}
        with errors only
      </label>
      <select
        aria-label="Sort"
        value={filter.sort ?? 'time'}
        onChange={event => apply('sort')(event.currentTarget.value)}
      >
        <option value="time">latest first</option>
        <option value="cost">most expensive first</option>
        <option value="duration">longest first</option>
        <option value="tokens">most tokens first</option>
      </select>
    </div>
  );
}

/** When a run started, how costly and long it was at least, and its session. */
function Measures({ filter, apply }: { readonly filter: LibraryFilter; readonly apply: Apply }) {
  const seconds =
    filter.minDuration === undefined || filter.minDuration === ''
      ? ''
      : String(Number(filter.minDuration) / 1000);
  return (
    <>
      <select
        aria-label="Since"
        value={filter.since ?? ''}
        onChange={event => apply('since')(event.currentTarget.value)}
      >
        <option value="">any time</option>
        <option value="1h">last hour</option>
        <option value="1d">last day</option>
        <option value="7d">last 7 days</option>
        <option value="30d">last 30 days</option>
      </select>
      <Field
        type="number"
        aria-label="Least cost"
        placeholder="cost ≥ $"
        min="0"
        step="any"
        value={filter.minCost ?? ''}
        onApply={apply('minCost')}
      />
      <Field
        type="number"
        aria-label="Least duration"
        placeholder="duration ≥ s"
        min="0"
        step="any"
        value={seconds}
        onApply={value => apply('minDuration')(value === '' ? '' : String(Number(value) * 1000))}
      />
      <Field
        type="search"
        aria-label="Session"
        placeholder="session…"
        value={filter.session ?? ''}
        onApply={apply('session')}
      />
    </>
  );
}

/**
 * The library's conversations (its `sessions` with turns), each with its turns and how it ended:
 * choosing one lists its turns (the session filter).
 */
function Conversations({
  choices,
  session,
  onChoose,
}: {
  readonly choices: readonly string[];
  readonly session: string;
  readonly onChoose: (session: string) => void;
}) {
  if (choices.length === 0) return null;
  const conversations = choices.map(choice => choice.split('\u001f'));
  const known = conversations.some(([id]) => id === session);
  return (
    <select
      aria-label="Conversation"
      value={known ? session : ''}
      onChange={event => onChoose(event.currentTarget.value)}
    >
      <option value="">every run (or choose a conversation)</option>
      {conversations.map(([id = '', turns = '', outcome = '']) => (
        <option value={id}>
          {id} · {turns} turn{turns === '1' ? '' : 's'} · {outcome}
        </option>
      ))}
    </select>
  );
}
