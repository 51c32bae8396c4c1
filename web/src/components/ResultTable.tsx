// The result table: a virtualised grid (only the visible rows are in the DOM,
// fixed row height), headers `name (unit)` that sort on click, numbers
// right-aligned with thin group separators, long text cut with an ellipsis and
// shown whole on hover; rows selected by click (Ctrl/Cmd, Shift), and the
// sums of the rule's summed columns in a second header row; the search box's
// matches marked and its current match highlighted and scrolled to.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { cellAbsolute, cellDisplay, displayNumber, type DecodedResult } from '../lib/result';
import { formatInt } from '../lib/format';
import type { SortState } from '../lib/sort';
import { movedFocus } from '../lib/selection';
import { OWN_KEYS } from '../lib/shortcuts';
import { useLang } from '../i18n/lang';
import { PAGE_MARGIN } from '../lib/paged';

export const ROW_HEIGHT = 26;
const HEADER_HEIGHT = 38; // two lines
const OVERSCAN = 8;
// Browsers cap an element's height (~33.5 million px in Chromium); past this
// the scroll range is scaled so every row is still reachable.
const MAX_SCROLL_HEIGHT = 15_000_000;

/** Text width in px; `header` text is 12px bold, cells 13px. */
export type Measure = (text: string, header: boolean) => number;

/** A rough measure without a DOM (tests): 7px per character, 7.5 for headers. */
export const roughMeasure: Measure = (text, header) => text.length * (header ? 7.5 : 7);

let canvasMeasure: Measure | null = null;
/** Measures with the page's own fonts (canvas 2D), cached per text. */
function pageMeasure(): Measure {
  if (canvasMeasure) return canvasMeasure;
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return roughMeasure;
  const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
  const cache = new Map<string, number>();
  canvasMeasure = (text, header) => {
    const key = (header ? 'h' : 'c') + text;
    let w = cache.get(key);
    if (w === undefined) {
      ctx.font = header ? `600 12px ${family}` : `13px ${family}`;
      w = ctx.measureText(text).width;
      if (cache.size > 5000) cache.clear();
      cache.set(key, w);
    }
    return w;
  };
  return canvasMeasure;
}

/** Width a header needs when it may wrap onto two lines (split at the best space). */
export function headerWidth(header: string, measure: Measure): number {
  const words = header.split(/\s+/);
  let best = measure(header, true);
  for (let k = 1; k < words.length; k++) {
    const w = Math.max(measure(words.slice(0, k).join(' '), true), measure(words.slice(k).join(' '), true));
    best = Math.min(best, w);
  }
  return best + 11; // the sort mark
}

const MAX_TEXT_WIDTH = 560;

/**
 * Column content widths in px: the header (two lines at most) and the widest
 * cells (text sampled). A `summed` column is also as wide as the sum of its
 * cells' magnitudes, the largest its sums cell can show, so no selection's
 * sum is cut off (and the column does not jump as the selection changes).
 */
export function columnWidths(t: DecodedResult, measure: Measure = roughMeasure, summed: ReadonlySet<number> = new Set()): number[] {
  return t.columns.map((c, ci) => {
    const head = headerWidth(c.header, measure);
    const a = t.cells[ci];
    if (c.numeric) {
      let max = 0;
      let min = 0;
      let magnitude = 0;
      for (let r = 0; r < t.rowCount; r++) {
        const v = a[r];
        if (v > max) max = v;
        else if (v < min) min = v;
        if (v === v) magnitude += Math.abs(v); // NaN ("-") left out
      }
      // The sums row is bold: a tenth wider than the same digits in a cell.
      const sum = summed.has(ci) ? measure(displayNumber(t, ci, magnitude), false) * 1.1 : 0;
      return Math.ceil(Math.max(head, measure(displayNumber(t, ci, max), false), measure(displayNumber(t, ci, min), false), sum));
    }
    let longest = '-';
    const n = Math.min(t.rowCount, 20000);
    for (let r = 0; r < n; r++) {
      const v = a[r];
      if (v < t.texts.length && t.texts[v].length > longest.length) longest = t.texts[v];
    }
    return Math.ceil(Math.min(Math.max(head, measure(longest, false) + 2), MAX_TEXT_WIDTH));
  });
}

interface Props {
  result: DecodedResult;
  order: Uint32Array;
  /** The order shown. */
  sort: SortState | null;
  /** An order asked for and not shown yet. */
  pendingSort?: SortState | null;
  onSort: (col: number) => void;
  /** The result rows shown selected. */
  selectedRows?: ReadonlySet<number>;
  /** A result row to scroll into view when it changes (a hotspot bar's row). */
  scrollToRow?: number | null;
  /** A click on a row: `toggle` with Ctrl/Cmd, `range` with Shift. */
  onRowClick?: (row: number, mods: { toggle: boolean; range: boolean }) => void;
  /** A right-click on a row, at the pointer's page position. */
  onRowContextMenu?: (row: number, x: number, y: number) => void;
  /** A second header line per column (the compare view's aliases). */
  headerNote?: (col: number) => string | undefined;
  /** The header's second row: column index -> its sum, and what was summed. */
  sums?: { cells: Map<number, string>; label: string; title: string } | null;
  /** The search box's matching rows (one byte per result row). */
  matches?: Uint8Array | null;
  /** The search box's current match: its row and position in `order`; scrolled to when it changes. */
  currentMatch?: { row: number; at: number } | null;
  /** A paged result's cells (null while the row's page is on its way); else `result`'s own. */
  cell?: (row: number, col: number) => string | null;
  /** A paged result's time cells' absolute ns (their hover); else `result`'s own. */
  absolute?: (row: number, col: number) => bigint | null;
  /** The rows the columns' widths are measured on, for a result whose cells are not here (a paged one's first page). */
  widthsFrom?: DecodedResult;
  /** The rows in view, and with a margin around them, whenever they change (a paged result fetches them). */
  onRowsShown?: (visible: Uint32Array, around: Uint32Array) => void;
}

/** The scrollTop that shows position `at` of `n` rows in the middle of a `viewport` px high view. */
export function scrollTopFor(at: number, n: number, viewport: number): number {
  const bodyHeight = n * ROW_HEIGHT;
  if (bodyHeight <= MAX_SCROLL_HEIGHT) return Math.max(0, at * ROW_HEIGHT - Math.floor(viewport / 2));
  // Scaled (see the render): the first row shown is scrollTop / maxScroll of the rows that can come first.
  const visibleRows = Math.ceil(viewport / ROW_HEIGHT) + 1;
  const maxScroll = Math.max(1, MAX_SCROLL_HEIGHT - viewport);
  const firstRows = Math.max(1, n - visibleRows + 1);
  const first = Math.min(firstRows - 1, Math.max(0, at - Math.floor(visibleRows / 2)));
  return Math.ceil((first / firstRows) * maxScroll);
}

const NO_ROWS: ReadonlySet<number> = new Set();

export function ResultTable(props: Props) {
  const { result, order, sort, pendingSort, onSort, onRowClick, onRowContextMenu, headerNote, sums, matches, currentMatch } = props;
  const { cell, onRowsShown } = props;
  const { t } = useLang();
  const selectedRows = props.selectedRows ?? NO_ROWS;
  const scrollToRow = props.scrollToRow ?? null;
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setViewport(el.clientHeight));
    ro.observe(el);
    setViewport(el.clientHeight);
    return () => ro.disconnect();
  }, []);

  // The row the keyboard focus is on (a position in `order`; -1: none).
  const [focusAt, setFocusAt] = useState(-1);
  // Back to the top when the rows change (new result, sort or filter).
  useLayoutEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setScrollTop(0);
    setFocusAt(-1);
  }, [result, order]);

  // Scroll a row asked for (a hotspot bar's, the current search match) into the middle of the view.
  const scrollTo = (at: number) => {
    const el = scroller.current;
    if (!el || at < 0) return;
    const top = scrollTopFor(at, order.length, el.clientHeight);
    el.scrollTop = top;
    setScrollTop(top);
  };
  useLayoutEffect(() => {
    if (scrollToRow !== null) scrollTo(order.indexOf(scrollToRow));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollToRow, order]);
  useLayoutEffect(() => {
    if (currentMatch) scrollTo(currentMatch.at);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [currentMatch]);

  const hasRowNumber = result.columns.some((c) => c.name === 'Row#');
  const measured = props.widthsFrom ?? result;
  const summedKey = sums ? [...sums.cells.keys()].join() : '';
  const widths = useMemo(
    () => columnWidths(measured, pageMeasure(), new Set(summedKey ? summedKey.split(',').map(Number) : [])),
    [measured, summedKey],
  );
  const template = useMemo(() => {
    const px = (w: number) => `${Math.ceil(w) + 15}px`; // + cell padding
    const cols = widths.map(px);
    // The last text column takes the remaining width, and gives way (down to
    // a readable minimum, then an ellipsis) before the numbers scroll away.
    for (let i = cols.length - 1; i >= 0; i--) {
      if (!result.columns[i].numeric) {
        cols[i] = `minmax(${px(Math.min(widths[i], 200))}, 1fr)`;
        break;
      }
    }
    const measure = pageMeasure();
    const rowNum = px(Math.max(measure('Row#', true), measure(formatInt(result.rowCount), false)));
    return [...(hasRowNumber ? [] : [rowNum]), ...cols].join(' ');
  }, [widths, result, hasRowNumber]);

  const n = order.length;
  const bodyHeight = n * ROW_HEIGHT;
  const scaled = bodyHeight > MAX_SCROLL_HEIGHT;
  const spacerHeight = scaled ? MAX_SCROLL_HEIGHT : bodyHeight;
  const visibleRows = Math.ceil(viewport / ROW_HEIGHT) + 1;
  let first: number;
  let offsetTop: number;
  if (scaled) {
    const maxScroll = Math.max(1, spacerHeight - viewport);
    first = Math.floor((Math.min(scrollTop, maxScroll) / maxScroll) * Math.max(0, n - visibleRows + 1));
    offsetTop = scrollTop; // rows are pinned to the viewport
  } else {
    first = Math.floor(scrollTop / ROW_HEIGHT);
    offsetTop = first * ROW_HEIGHT;
  }
  const start = Math.max(0, first - (scaled ? 0 : OVERSCAN));
  const end = Math.min(n, first + visibleRows + (scaled ? 0 : OVERSCAN));
  if (!scaled) offsetTop = start * ROW_HEIGHT;
  useEffect(() => {
    if (!onRowsShown) return;
    onRowsShown(order.subarray(start, end), order.subarray(Math.max(0, start - PAGE_MARGIN), Math.min(n, end + PAGE_MARGIN)));
  }, [onRowsShown, order, start, end, n]);

  const absoluteOf = props.absolute ?? ((row: number, col: number) => cellAbsolute(result, row, col));
  const rows: React.ReactNode[] = [];
  for (let i = start; i < end; i++) {
    const r = order[i];
    const picked = selectedRows.has(r);
    const mark = (currentMatch?.at === i ? ' current-match' : matches?.[r] === 1 ? ' match' : '') + (focusAt === i ? ' focused' : '');
    rows.push(
      <div
        className={`tr${picked ? ' selected' : ''}${mark}`}
        role="row"
        key={i}
        style={{ height: ROW_HEIGHT }}
        aria-rowindex={i + 2}
        aria-selected={onRowClick ? picked : undefined}
        data-row={r}
        data-focused={focusAt === i ? '' : undefined}
        data-loading={cell && cell(r, 0) === null ? '' : undefined}
        onMouseDown={onRowClick ? (e) => e.shiftKey && e.preventDefault() /* no text selection */ : undefined}
        onClick={
          onRowClick
            ? (e) => {
                setFocusAt(i); // the keys go on from the row clicked
                onRowClick(r, { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey });
              }
            : undefined
        }
        onContextMenu={
          onRowContextMenu
            ? (e) => {
                e.preventDefault();
                onRowContextMenu(r, e.clientX, e.clientY);
              }
            : undefined
        }
      >
        {!hasRowNumber && (
          <div className="td num rownum" role="cell">
            {formatInt(r + 1)}
          </div>
        )}
        {result.columns.map((c, ci) => {
          const shown = cell ? cell(r, ci) : cellDisplay(result, r, ci);
          const text = shown ?? '';
          // A time shown from the report's zero: its absolute ns on hover.
          const abs = c.timePoint ? absoluteOf(r, ci) : null;
          return c.numeric ? (
            <div className="td num" role="cell" key={ci} title={abs === null ? undefined : t.absoluteTime(String(abs))}>
              {text}
            </div>
          ) : (
            <div className="td text" role="cell" key={ci} title={text.length > 12 ? text : undefined}>
              {text}
            </div>
          );
        })}
      </div>,
    );
  }

  return (
    <div
      className="table-scroller"
      ref={scroller}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      role="table"
      {...OWN_KEYS}
      aria-rowcount={n + 1}
      data-testid="result-table"
      data-rows={n}
      data-sort={sort ? `${sort.col}:${sort.dir}` : ''}
      tabIndex={0}
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget) return; // a header's own keys
        const pageRows = Math.max(1, Math.floor(viewport / ROW_HEIGHT) - 3);
        if ((e.key === 'Enter' || e.key === ' ') && onRowClick && focusAt >= 0 && focusAt < n) {
          e.preventDefault();
          onRowClick(order[focusAt], { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey });
          return;
        }
        const to = movedFocus(focusAt, e.key, n, pageRows);
        if (to === null) return;
        e.preventDefault();
        setFocusAt(to);
        // Keep the focused row in view (scrolled to the middle when it leaves it).
        if (to <= first || to >= first + pageRows) scrollTo(to);
      }}
    >
      <div className="table-inner" style={{ '--cols': template } as React.CSSProperties}>
        <div className="tr thead" role="row" style={{ height: HEADER_HEIGHT }}>
          {!hasRowNumber && (
            <div className="th num" role="columnheader" title={t.rowNumberTitle}>
              Row#
            </div>
          )}
          {result.columns.map((c, ci) => {
            const active = sort?.col === ci;
            const waiting = pendingSort?.col === ci;
            return (
              <div
                key={ci}
                role="columnheader"
                className={`th${c.numeric ? ' num' : ''}${active ? ' sorted' : ''}`}
                aria-sort={active ? (sort!.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                onClick={() => onSort(ci)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    onSort(ci);
                  }
                }}
                tabIndex={0}
                title={t.sortColumnTitle(c.header)}
                data-testid={`th-${ci}`}
              >
                <span className="th-label">
                  {c.header}
                  {headerNote?.(ci) && <span className="th-note">{headerNote(ci)}</span>}
                </span>
                <span className={`sort-mark${waiting ? ' waiting' : ''}`} aria-hidden>
                  {waiting ? (pendingSort!.dir === 'asc' ? '▲' : '▼') : active ? (sort!.dir === 'asc' ? '▲' : '▼') : ''}
                </span>
              </div>
            );
          })}
        </div>
        {sums && (
          <div className="tr sums-row" role="row" style={{ height: ROW_HEIGHT, top: HEADER_HEIGHT }} title={sums.title} data-testid="sums-row">
            {!hasRowNumber && (
              <div className="td sums-label" role="cell">
                {sums.label}
              </div>
            )}
            {result.columns.map((c, ci) => (
              <div className={`td${c.numeric ? ' num' : ''}`} role="cell" key={ci} data-testid={sums.cells.has(ci) ? `sum-${ci}` : undefined}>
                {sums.cells.get(ci) ?? (hasRowNumber && ci === 0 ? sums.label : '')}
              </div>
            ))}
          </div>
        )}
        <div className="tbody" style={{ height: spacerHeight }}>
          <div className="rows" style={{ transform: `translateY(${offsetTop}px)` }}>
            {rows}
          </div>
        </div>
      </div>
      {n === 0 && <div className="table-empty muted">No rows.</div>}
    </div>
  );
}
