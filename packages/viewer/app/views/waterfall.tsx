import { useMemo, useRef, useState } from 'preact/hooks';
import { duration } from '../../src/format.js';
import { pointKinds, type Row, type RunModel } from '../model/run-model.js';
import { visibleRows, type RunRows } from '../model/run-rows.js';
import { VirtualList } from './virtual-list.js';

const rowHeight = 24;
const axisHeight = 26;
const labelWidth = 360;
const minZoom = 1;
const maxZoom = 4096;

const icons: Readonly<Record<Row['kind'], string>> = {
  run: '▶',
  agent: '◆',
  llm: '✦',
  tool: '⚙',
  handoff: '⇢',
  guardrail: '⚑',
  retry: '↻',
  malformed_answer: '⚠',
  approval: '✋',
  rate_limit_wait: '⏳',
  workflow: '☰',
  step: '▸',
  plan: '✎',
  span: '○',
  feature: '✧',
  transform: '⇄',
};

/** Props of {@link Waterfall}. */
export interface WaterfallProps {
  readonly run: RunModel;
  readonly selected: number | undefined;
  readonly onSelect: (seq: number) => void;
}

/** A tick step of 1, 2 or 5 × 10^n milliseconds giving about `wanted` ticks. */
function tickStep(totalMs: number, wanted: number): number {
  const raw = totalMs / Math.max(1, wanted);
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-3)));
  return [1, 2, 5, 10].map(factor => factor * power).find(step => step >= raw) ?? power * 10;
}

/**
 * The run's spans nested on a real time axis: agents, model calls, tool calls, handoffs and
 * delegations, with guardrail verdicts and retries as markers. Parallel calls overlap in time, so
 * their bars stand side by side. Zoom with the buttons or Ctrl + wheel, pan by dragging the bars or
 * scrolling sideways, collapse a span with its triangle (or ← and →); ↑ and ↓ move the selection.
 */
export function Waterfall({ run, selected, onSelect }: WaterfallProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const [zoom, setZoom] = useState(1);
  const [listWidth, setListWidth] = useState(1200);
  const scroller = useRef<HTMLDivElement | null>(null);
  const all = run.rows;
  const visible = useMemo(() => visibleRows(all, collapsed), [run, collapsed]);
  const totalMs = Math.max(1, all.rowAt(0)?.endMs ?? 0, run.totals.durationMs);
  const viewWidth = Math.max(300, listWidth - labelWidth - 90);
  const trackWidth = viewWidth * zoom;
  const x = (ms: number): number => (ms / totalMs) * trackWidth;
  const selectedIndex = selected === undefined ? -1 : visible.indexOf(all.indexOfSeq(selected));
  const toggle = toggler(all, collapsed, setCollapsed);
  const zoomTo = (factor: number, anchorX?: number): void => {
    const element = scroller.current;
    const next = Math.min(maxZoom, Math.max(minZoom, factor));
    if (element !== null) {
      const anchor = anchorX ?? element.clientWidth / 2;
      const at = (element.scrollLeft + anchor - labelWidth) / (trackWidth || 1);
      requestAnimationFrame(() => {
        element.scrollLeft = Math.max(0, at * viewWidth * next - anchor + labelWidth);
      });
    }
    setZoom(next);
  };
  const width = labelWidth + trackWidth + 16;
  const line = { width, x, collapsed, toggle, onSelect, drag: panByDragging(scroller) };
  const onWheel = (event: WheelEvent): void => {
    if (!event.ctrlKey && !event.metaKey) return;
    event.preventDefault();
    const left = scroller.current?.getBoundingClientRect().left ?? 0;
    zoomTo(zoom * (event.deltaY < 0 ? 1.5 : 1 / 1.5), event.clientX - left);
  };
  return (
    <section class="waterfall" aria-label="Waterfall">
      <Toolbar
        rows={all}
        shownRows={visible.length}
        totalMs={totalMs}
        zoom={zoom}
        zoomTo={zoomTo}
        collapse={setCollapsed}
      />
      <VirtualList
        label="Spans"
        className="waterfall-rows"
        count={visible.length}
        rowHeight={rowHeight}
        width={width}
        headerHeight={axisHeight}
        scrollerRef={scroller}
        onKeyDown={keyboard(all, visible, selectedIndex, onSelect, toggle)}
        onWidth={setListWidth}
        {...(selectedIndex === -1 ? {} : { revealIndex: selectedIndex })}
        header={<Axis ticks={ticksOf(totalMs, zoom, viewWidth)} width={width} x={x} />}
        renderRow={(index, top) => {
          const at = visible[index] ?? -1;
          const row = all.rowAt(at);
          return row === undefined ? (
            <PendingRow key={all.seqAt(at)} top={top} width={width} depth={all.depthAt(at)} />
          ) : (
            <SpanRow
              key={row.seq}
              row={row}
              top={top}
              selected={row.seq === selected}
              line={line}
              onWheel={onWheel}
            />
          );
        }}
      />
    </section>
  );
}

/** Collapses or opens the span at an index (`open` says which; else it flips). */
function toggler(
  all: RunRows,
  collapsed: ReadonlySet<number>,
  setCollapsed: (next: ReadonlySet<number>) => void,
): (index: number, open?: boolean) => void {
  return (index, open) => {
    if (all.subtreeEndAt(index) === index + 1) return;
    const seq = all.seqAt(index);
    const next = new Set(collapsed);
    if (open ?? collapsed.has(seq)) next.delete(seq);
    else next.add(seq);
    setCollapsed(next);
  };
}

/** Where the axis has a tick: every 1, 2 or 5 × 10^n ms, about one per 110 pixels. */
function ticksOf(totalMs: number, zoom: number, viewWidth: number): number[] {
  const step = tickStep(totalMs / zoom, viewWidth / 110);
  const ticks: number[] = [];
  for (let at = 0; at <= totalMs && ticks.length < 5000; at += step) ticks.push(at);
  return ticks;
}

/** ↑ and ↓ move the selection; ← and → collapse and open the selected span. */
function keyboard(
  all: RunRows,
  visible: Int32Array,
  selectedIndex: number,
  onSelect: (seq: number) => void,
  toggle: (index: number, open?: boolean) => void,
): (event: KeyboardEvent) => void {
  return event => {
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step !== undefined) {
      const next = visible[Math.min(visible.length - 1, Math.max(0, selectedIndex + step))];
      if (next !== undefined) onSelect(all.seqAt(next));
      event.preventDefault();
    } else if (selectedIndex !== -1 && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      toggle(visible[selectedIndex]!, event.key === 'ArrowRight');
      event.preventDefault();
    }
  };
}

/** Zoom, fit, expand and collapse, and what is shown. */
function Toolbar({
  rows,
  shownRows,
  totalMs,
  zoom,
  zoomTo,
  collapse,
}: {
  readonly rows: RunRows;
  readonly shownRows: number;
  readonly totalMs: number;
  readonly zoom: number;
  readonly zoomTo: (factor: number) => void;
  readonly collapse: (seqs: ReadonlySet<number>) => void;
}) {
  const nestedAgents = () => {
    const seqs = new Set<number>();
    for (let index = 0; index < rows.count; index++)
      if (rows.kindAt(index) === 'agent' && rows.depthAt(index) > 1) seqs.add(rows.seqAt(index));
    return seqs;
  };
  return (
    <div class="toolbar">
      <button type="button" onClick={() => zoomTo(zoom * 2)} aria-label="Zoom in">
        +
      </button>
      <button type="button" onClick={() => zoomTo(zoom / 2)} aria-label="Zoom out">
        −
      </button>
      <button type="button" onClick={() => zoomTo(1)}>
        fit
      </button>
      <button type="button" onClick={() => collapse(new Set())}>
        expand all
      </button>
      <button type="button" onClick={() => collapse(nestedAgents())}>
        collapse agents
      </button>
      <span class="muted">
        {shownRows} of {rows.count} rows · {duration(totalMs)} · zoom {zoom}×
      </span>
    </div>
  );
}

/** The time axis above the bars. */
function Axis({
  ticks,
  width,
  x,
}: {
  readonly ticks: readonly number[];
  readonly width: number;
  readonly x: (ms: number) => number;
}) {
  return (
    <div class="axis" style={{ width: `${width}px` }}>
      <div class="axis-label" style={{ width: `${labelWidth}px` }}>
        span
      </div>
      {ticks.map(at => (
        <span class="tick" style={{ left: `${labelWidth + x(at)}px` }}>
          {duration(at)}
        </span>
      ))}
    </div>
  );
}

/** What every row of the waterfall shares: its width, the time scale, and what a row can do. */
interface RowLine {
  readonly width: number;
  readonly x: (ms: number) => number;
  readonly collapsed: ReadonlySet<number>;
  readonly toggle: (index: number) => void;
  readonly onSelect: (seq: number) => void;
  readonly drag: (event: MouseEvent) => void;
}

/** One span: its label (twisty, icon, title, summary) and its bar or marker on the time axis. */
function SpanRow({
  row,
  top,
  selected,
  line,
  onWheel,
}: {
  readonly row: Row;
  readonly top: number;
  readonly selected: boolean;
  readonly line: RowLine;
  readonly onWheel: (event: WheelEvent) => void;
}) {
  const { width, x, collapsed, toggle, onSelect, drag } = line;
  const parent = row.subtreeEnd > row.index + 1;
  const left = x(row.startMs);
  const isPoint = pointKinds.has(row.kind);
  return (
    <div
      role="listitem"
      class={`row kind-${row.kind} status-${row.status}${selected ? ' selected' : ''}`}
      style={{ top: `${top}px`, width: `${width}px` }}
      data-seq={row.seq}
      data-kind={row.kind}
      onClick={() => onSelect(row.seq)}
      onWheel={onWheel}
    >
      <div
        class="label"
        style={{ paddingLeft: `${6 + row.depth * 14}px`, width: `${labelWidth}px` }}
      >
        <span
          class="twisty"
          onClick={event => {
            event.stopPropagation();
            toggle(row.index);
          }}
        >
          {parent ? (collapsed.has(row.seq) ? '▸' : '▾') : ''}
        </span>
        <span class="icon">{icons[row.kind]}</span>
        <span class="title">{row.title}</span>
        <span class="summary">{row.summary}</span>
      </div>
      <div class="track" onMouseDown={drag}>
        {isPoint ? (
          <span class="marker" style={{ left: `${left - 5}px` }} title={row.title} />
        ) : (
          <span
            class="bar"
            style={{ left: `${left}px`, width: `${Math.max(2, x(row.endMs) - left)}px` }}
          />
        )}
        <span class="bar-text" style={{ left: `${Math.max(left, x(row.endMs)) + 6}px` }}>
          {isPoint ? row.summary : duration(row.endMs - row.startMs)}
          {row.status === 'open' ? ' · not ended' : ''}
        </span>
      </div>
    </div>
  );
}

/** A row whose events are still being fetched: its place, indented, until they come. */
function PendingRow({ top, width, depth }: { top: number; width: number; depth: number }) {
  return (
    <div role="listitem" class="row pending" style={{ top: `${top}px`, width: `${width}px` }}>
      <div class="label" style={{ paddingLeft: `${6 + depth * 14}px`, width: `${labelWidth}px` }}>
        <span class="muted">…</span>
      </div>
    </div>
  );
}

/** Dragging the bars pans the waterfall. */
function panByDragging(scroller: { current: HTMLDivElement | null }): (event: MouseEvent) => void {
  return (event: MouseEvent) => {
    const element = scroller.current;
    if (element === null || event.button !== 0) return;
    const startX = event.clientX;
    const startY = event.clientY;
    const { scrollLeft, scrollTop } = element;
    const move = (next: MouseEvent): void => {
      element.scrollLeft = scrollLeft - (next.clientX - startX);
      element.scrollTop = scrollTop - (next.clientY - startY);
    };
    const up = (): void => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  };
}
