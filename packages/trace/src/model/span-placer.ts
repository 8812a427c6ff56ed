import { isSpanEnd, isSpanStart } from '@agent-trace/core/spans';

/** What the placement of an event reads: its run, kind and span ids. */
export interface PlacedEvent {
  readonly run: string;
  readonly event: string;
  readonly span_id: string;
  readonly parent_span_id: string | null;
}

/**
 * Where an event goes in its run's span tree:
 * - `root`: a span that starts a tree of its own (a run's `run_start`, or its first span);
 * - `child`: a span that starts under `parent`;
 * - `end`: the end of the open span `own`;
 * - `point`: a point event (or an end nothing opened) under `parent`, or nowhere when the run has
 *   no tree yet.
 */
export type Placement<Node> =
  | { readonly kind: 'root' }
  | { readonly kind: 'child'; readonly parent: Node }
  | { readonly kind: 'end'; readonly own: Node }
  | { readonly kind: 'point'; readonly parent: Node | undefined };

/** Where a placer keeps the spans it has seen, by run and span id. */
export interface SpanIndex<Node> {
  get(run: string, spanId: string): Node | undefined;
  set(run: string, spanId: string, node: Node): void;
}

/** Spans kept in maps by run and span id: exact, about 60 bytes a span. */
export function mapSpanIndex<Node>(): SpanIndex<Node> {
  const nodes = new Map<string, Map<string, Node>>();
  return {
    get: (run, spanId) => nodes.get(run)?.get(spanId),
    set: (run, spanId, node) => {
      let ofRun = nodes.get(run);
      if (ofRun === undefined) {
        ofRun = new Map<string, Node>();
        nodes.set(run, ofRun);
      }
      ofRun.set(spanId, node);
    },
  };
}

/**
 * The one rule that places a trace's events in span trees, whatever a tree's nodes are (whole
 * events for `replay` and the page, row numbers for the served viewer's outline of a big trace).
 * An event whose parent is unknown hangs under its run's latest root, so nothing is hidden; a
 * resumed run's `run_start` roots a tree of its own.
 */
export class SpanPlacer<Node> {
  readonly #nodes: SpanIndex<Node>;
  readonly #latestRoot = new Map<string, Node>();
  readonly #isOpen: (node: Node) => boolean;

  /**
   * `isOpen` tells whether a span node has had no end yet; `index` keeps the spans seen (maps
   * unless told: a big trace's outline keeps them more compactly).
   */
  constructor(isOpen: (node: Node) => boolean, index: SpanIndex<Node> = mapSpanIndex()) {
    this.#isOpen = isOpen;
    this.#nodes = index;
  }

  /** Where `event` goes. A span start is then given its node with {@link SpanPlacer.started}. */
  place(event: PlacedEvent): Placement<Node> {
    const parent =
      event.parent_span_id === null ? undefined : this.#nodes.get(event.run, event.parent_span_id);
    const root = this.#latestRoot.get(event.run);
    if (isSpanStart(event.event)) {
      if (parent !== undefined) return { kind: 'child', parent };
      if (root === undefined || event.event === 'run_start') return { kind: 'root' };
      return { kind: 'child', parent: root };
    }
    const own = this.#nodes.get(event.run, event.span_id);
    if (own !== undefined && this.#isOpen(own) && isSpanEnd(event.event))
      return { kind: 'end', own };
    return { kind: 'point', parent: parent ?? root };
  }

  /** Records the node of a span start placed as `placement`. */
  started(event: PlacedEvent, node: Node, placement: Placement<Node>): void {
    this.#nodes.set(event.run, event.span_id, node);
    if (placement.kind === 'root') this.#latestRoot.set(event.run, node);
  }
}
