import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Rows drawn beyond the visible ones, above and below, so a fast scroll shows no gap. */
const overscan = 8;

/** Props of {@link VirtualList}. */
export interface VirtualListProps {
  readonly count: number;
  /** Every row has this height, in pixels. */
  readonly rowHeight: number;
  /** Draws row `index`, placed at `top` pixels. */
  readonly renderRow: (index: number, top: number) => ComponentChildren;
  /** The content's width, when it is wider than the list (the waterfall zoomed in). */
  readonly width?: number;
  /** Scrolls so that this row is visible whenever it changes. */
  readonly revealIndex?: number;
  /** Drawn above the rows, sticky (the waterfall's time axis). */
  readonly header?: ComponentChildren;
  readonly headerHeight?: number;
  readonly className?: string;
  readonly label: string;
  /** Receives the scrolling element, for zooming and panning. */
  readonly scrollerRef?: { current: HTMLDivElement | null };
  readonly onKeyDown?: (event: KeyboardEvent) => void;
  /** Told the list's inner width whenever it changes. */
  readonly onWidth?: (width: number) => void;
}

/**
 * A list that draws only the rows in view (plus a few), so a run of 100,000 events scrolls as
 * smoothly as one of ten: the DOM holds about a screenful of rows whatever the count.
 */
export function VirtualList(props: VirtualListProps) {
  const { count, rowHeight, headerHeight = 0 } = props;
  const own = useRef<HTMLDivElement | null>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(800);
  useLayoutEffect(() => {
    const element = own.current;
    if (element === null) return undefined;
    if (props.scrollerRef !== undefined) props.scrollerRef.current = element;
    const measure = (): void => {
      setHeight(element.clientHeight);
      props.onWidth?.(element.clientWidth);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const element = own.current;
    if (element === null || props.revealIndex === undefined) return;
    const rowTop = props.revealIndex * rowHeight;
    const visible = element.clientHeight - headerHeight;
    if (rowTop < element.scrollTop || rowTop + rowHeight > element.scrollTop + visible)
      element.scrollTop = Math.max(0, rowTop - visible / 3);
  }, [props.revealIndex]);
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((top + height) / rowHeight) + overscan);
  const rows: ComponentChildren[] = [];
  for (let index = first; index < last; index++)
    rows.push(props.renderRow(index, index * rowHeight));
  return (
    <div
      ref={own}
      class={`virtual-list ${props.className ?? ''}`}
      role="list"
      aria-label={props.label}
      tabIndex={0}
      onScroll={event => setTop(event.currentTarget.scrollTop)}
      onKeyDown={props.onKeyDown}
    >
      {props.header}
      <div
        class="virtual-space"
        style={{
          height: `${count * rowHeight}px`,
          width: props.width === undefined ? '100%' : `${props.width}px`,
        }}
      >
        {rows}
      </div>
    </div>
  );
}
