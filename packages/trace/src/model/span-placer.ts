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

/**
 * The one rule that places a trace's events in span trees, whatever a tree's nodes are (whole
 * events for `replay` and the page, row numbers for the served viewer's outline of a big trace).
 * An event whose parent is unknown hangs under its run's latest root, so nothing is hidden; a
 * resumed run's `run_start` roots a tree of its own.
 */
export class SpanPlacer<Node> {
  readonly #nodes = new Map<string, Map<string, Node>>();
  readonly #latestRoot = new Map<string, Node>();
  readonly #isOpen: (node: Node) => boolean;

  /** `isOpen` tells whether a span node has had no end yet. */
  constructor(isOpen: (node: Node) => boolean) {
    this.#isOpen = isOpen;
  }

  /** Where `event` goes. A span start is then given its node with {@link SpanPlacer.started}. */
  place(event: PlacedEvent): Placement<Node> {
    const nodes = this.#nodes.get(event.run);
    const parent =
      event.parent_span_id === null || nodes === undefined
        ? undefined
        : nodes.get(event.parent_span_id);
    const root = this.#latestRoot.get(event.run);
    if (isSpanStart(event.event)) {
      if (parent !== undefined) return { kind: 'child', parent };
      if (root === undefined || event.event === 'run_start') return { kind: 'root' };
      return { kind: 'child', parent: root };
    }
    const own = nodes?.get(event.span_id);
    if (own !== undefined && this.#isOpen(own) && isSpanEnd(event.event))
      return { kind: 'end', own };
    return { kind: 'point', parent: parent ?? root };
  }

  /** Records the node of a span start placed as `placement`. */
  started(event: PlacedEvent, node: Node, placement: Placement<Node>): void {
    let nodes = this.#nodes.get(event.run);
    if (nodes === undefined) {
      nodes = new Map<string, Node>();
      this.#nodes.set(event.run, nodes);
    }
    nodes.set(event.span_id, node);
    if (placement.kind === 'root') this.#latestRoot.set(event.run, node);
  }
}
