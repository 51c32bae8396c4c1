// A rule's result: the toolbar (row count, search box, active filter,
// selection, Export CSV / XLSX), the table with its selected-row sums, the
// breakdown tree of a nested table and the pie chart beside it.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EventRow, RowSpans, RuleDecl } from '../engine/types';
import { downloadText, type ExportFormat } from '../lib/download';
import { formatInt, THIN_SPACE, ungroupDigits } from '../lib/format';
import { COUNT_ROWS, filterRowsByKeys, pieModel, topSlices, type PieModel, type PieSlice } from '../lib/pie';
import {
  keyTotalsInParts,
  rowsWithKeysInParts,
  searchInParts,
  totalsInParts,
  type PagedEngine,
} from '../lib/paged_queries';
import { cellDisplay, findColumn, formatNumber, identityOrder, type DecodedResult } from '../lib/result';
import { clickRow, columnSums, NO_SELECTION, summaryRowTest, summedRows, type Selection } from '../lib/selection';
import { nextSort, sortRows, type SortState } from '../lib/sort';
import { BreakdownTree } from './BreakdownTree';
import { ContextMenu, type MenuItem } from './ContextMenu';
import { ExportButtons } from './ExportButtons';
import { PieChart } from './PieChart';
import { ResultTable } from './ResultTable';
import { useLang } from '../i18n/lang';
import { TableSearchBox } from './TableSearch';
import { useTableSearch } from '../state/useTableSearch';
import { usePagedRows } from '../state/usePagedRows';
import type { FocusRows } from '../state/useTableFocus';
import { eventAt, rowTimelineItems } from '../lib/event_links';
import { identityKey, useAnswer } from '../state/useAnswer';
import { EngineText } from './EngineText';

interface Props {
  rule: RuleDecl;
  result: DecodedResult;
  pieKey: string | null;
  onPieKey: (key: string) => void;
  topN: number;
  onTopN: (n: number) => void;
  onExport: (format: ExportFormat) => void;
  exporting: ExportFormat | null;
  /** The report's name without extension: a rule's files download as <fileStem>_<name>. */
  fileStem: string;
  chartOpen: boolean;
  onToggleChart: () => void;
  /** The engine's sort of this result (else the rows are sorted here). */
  sortOrder?: (column: number, descending: boolean) => Promise<Uint32Array>;
  /** True while a sort is on its way. */
  onPendingChange: (pending: boolean) => void;
  /** A row's time span to the timeline (zoom to it, or only highlight it). */
  onShowInTimeline?: (span: RowSpans, row: number, zoom: boolean) => void;
  /** A row's report event (a trace row's kernel) to the timeline: found there by identity, shown and spotlit. */
  onShowEventInTimeline?: (event: EventRow, label: string) => void;
  /** Rows to select and scroll to (a timeline slice's "Show in table", the advice's "Open rows"). */
  focusRows?: FocusRows | null;
  /** A summary row's name (a kernel's, a range's) to the timeline: its slices marked. */
  onMarkInTimeline?: (name: string) => void;
  /** A paged result's engine calls (its rows, search, pie, sums are the engine's). */
  paged?: PagedEngine;
  /** Every row is an event of a timeline row (the Events view): "Show on timeline" brings row `row`'s into view. */
  onShowRowOnTimeline?: (row: number) => void;
}

const INT64_MIN = -(2n ** 63n);

export function ResultView(props: Props) {
  const { rule, result, pieKey, onPieKey, topN, onTopN, onExport, exporting, chartOpen, onToggleChart } = props;
  const { sortOrder, onPendingChange, fileStem, paged } = props;
  const isPaged = !!result.paged && !!paged;
  const pages = usePagedRows(result, paged);
  const { t } = useLang();
  // The parent keys this view by result, so a new result starts unsorted and unfiltered.
  // `sort` is the order asked for; `applied` the one shown (the engine sorts asynchronously).
  const [sort, setSort] = useState<SortState | null>(null);
  const [applied, setApplied] = useState<{ sort: SortState; order: Uint32Array } | null>(null);
  const sortSeq = useRef(0);
  const [sortError, setSortError] = useState<string | null>(null);
  const pending = sort !== null && applied?.sort !== sort;
  useEffect(() => onPendingChange(pending), [pending, onPendingChange]);
  useEffect(() => () => onPendingChange(false), [onPendingChange]);

  const requestSort = (col: number) => {
    const next = nextSort(sort, col, result.columns[col].numeric);
    setSort(next);
    const seq = ++sortSeq.current;
    setSortError(null);
    if (!next) {
      setApplied(null);
      return;
    }
    const here = () => sortRows(result, identityOrder(result.rowCount), next.col, next.dir);
    // A paged result's cells are the engine's: only it can sort them.
    const order = sortOrder
      ? sortOrder(next.col, next.dir === 'desc').catch((e) => (isPaged ? Promise.reject(e) : here()))
      : new Promise<Uint32Array>((resolve) => setTimeout(() => resolve(here()), 0));
    void order.then(
      (o) => {
        if (seq === sortSeq.current) setApplied({ sort: next, order: o });
      },
      (e) => {
        if (seq !== sortSeq.current) return;
        setSort(applied?.sort ?? null);
        setSortError(e instanceof Error ? e.message : String(e));
      },
    );
  };
  const [slicePick, setSlicePick] = useState<{ slice: string; keys: string[]; keyColumn: string; topN: number } | null>(
    null,
  );

  const pie = rule.pie;
  const keyColumn = pie && pieKey && pie.keyColumns.includes(pieKey) ? pieKey : (pie?.keyColumns[0] ?? null);
  // A slice filter belongs to the chart it was picked on.
  const filter = slicePick && slicePick.keyColumn === keyColumn && slicePick.topN === topN ? slicePick : null;
  const setFilter = (f: { slice: string; keys: string[] } | null) =>
    setSlicePick(f && keyColumn ? { ...f, keyColumn, topN } : null);

  const heldModel = useMemo(
    () => (!isPaged && pie && keyColumn ? pieModel(result, pie.countRows ? null : pie.valueColumn, keyColumn, topN) : null),
    [result, pie, keyColumn, topN, isPaged],
  );
  // A paged result's pie: the engine sums per key, part by part, while the chart is open.
  const pagedPieCols = useMemo(() => {
    if (!isPaged || !pie || !keyColumn) return null;
    const keyCol = findColumn(result, keyColumn);
    const valueCol = pie.countRows ? COUNT_ROWS : findColumn(result, pie.valueColumn);
    if (keyCol < 0 || (valueCol !== COUNT_ROWS && (valueCol < 0 || !result.columns[valueCol].numeric))) return null;
    return { keyCol, valueCol };
  }, [isPaged, pie, keyColumn, result]);
  const pagedEntries = useAnswer(pagedPieCols && chartOpen ? `${pagedPieCols.keyCol}|${pagedPieCols.valueCol}` : null, (still) =>
    keyTotalsInParts(paged!, pagedPieCols!.keyCol, pagedPieCols!.valueCol === COUNT_ROWS ? -1 : pagedPieCols!.valueCol, result.rowCount, still),
  );
  const pagedModel = useMemo((): PieModel | null => {
    if (!pagedPieCols || !pagedEntries.value) return null;
    const slices = topSlices(pagedEntries.value, topN);
    return { ...pagedPieCols, slices, total: slices.reduce((sum, x) => sum + x.value, 0) };
  }, [pagedPieCols, pagedEntries.value, topN]);
  const model = isPaged ? pagedModel : heldModel;

  const base = useMemo(() => applied?.order ?? identityOrder(result.rowCount), [applied, result]);
  // A paged result's slice rows come from the engine.
  const sliceRows = useAnswer(isPaged && filter && model ? `${model.keyCol}|${JSON.stringify(filter.keys)}` : null, (still) =>
    rowsWithKeysInParts(paged!, model!.keyCol, filter!.keys, result.rowCount, still),
  );
  const sliced = useMemo(() => {
    if (!filter || !model) return base;
    const rows = isPaged ? sliceRows.value : filterRowsByKeys(result, model.keyCol, filter.keys);
    if (!rows) return base;
    const keep = new Uint8Array(result.rowCount);
    for (const r of rows) keep[r] = 1;
    return base.filter((r) => keep[r] === 1);
  }, [result, base, filter, model, isPaged, sliceRows.value]);
  const engineMatch = useMemo(
    () => (isPaged ? (query: string, still: () => boolean) => searchInParts(paged!, query, result.rowCount, still) : undefined),
    [isPaged, paged, result],
  );
  const search = useTableSearch(result, sliced, engineMatch);
  const order = search.order;
  const narrowed = order.length !== result.rowCount || !!filter;

  // Selected rows (reset with the result: the parent keys this view by it).
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  // Rows asked for from elsewhere: selected, the first scrolled into view.
  const focusRows = props.focusRows ?? null;
  useEffect(() => {
    if (focusRows && focusRows.rows.length > 0) setSelection({ rows: new Set(focusRows.rows), anchor: focusRows.rows[0] });
  }, [focusRows]);
  const isSummary = useMemo(() => summaryRowTest(result, rule.summaryRow), [result, rule.summaryRow]);
  // A paged result's sums: the engine's, over the selection, the rows shown, or every row.
  const sumCols = useMemo(
    () => rule.sumColumns.map((name) => findColumn(result, name)).filter((c) => c >= 0 && result.columns[c].numeric),
    [rule.sumColumns, result],
  );
  // The selected rows the table shows (all of them when nothing narrows it), else the rows shown, else all.
  const sumRows = useMemo(
    () =>
      selection.rows.size === 0
        ? narrowed
          ? order
          : null
        : narrowed
          ? summedRows(selection.rows, order)
          : Uint32Array.from(selection.rows),
    [selection.rows, narrowed, order],
  );
  const pagedSums = useAnswer(
    isPaged && sumCols.length > 0
      ? `${sumCols.join()}|${selection.rows.size > 0 ? [...selection.rows].join() : ''}|${narrowed ? `shown:${identityKey(order)}` : 'all'}`
      : null,
    (still) => totalsInParts(paged!, sumCols, sumRows, rule.summaryRow, result.rowCount, still),
  );
  const sums = useMemo(() => {
    if (rule.sumColumns.length === 0) return null;
    const list = isPaged
      ? (pagedSums.value ?? []).map((s) => ({ col: s.col, value: s.value, text: formatNumber(result.columns[s.col], s.value) }))
      : columnSums(result, rule.sumColumns, selection.rows, order, isSummary);
    if (list.length === 0) return null;
    const n = selection.rows.size;
    return {
      cells: new Map(list.map((c) => [c.col, c.text])),
      label: n > 0 ? t.sumsSelected : 'Σ',
      title: t.sumsTitle(formatInt(n), n === 1, narrowed, rule.summaryRow),
    };
  }, [result, rule.sumColumns, rule.summaryRow, selection, order, isSummary, narrowed, isPaged, pagedSums.value, t]);
  const [treeOpen, setTreeOpen] = useState(true);
  // Right-click on a row that stands for a time span: show it in the timeline.
  const [menu, setMenu] = useState<{ x: number; y: number; items: MenuItem[] } | null>(null);
  const onShow = props.onShowInTimeline;
  const onShowEvent = props.onShowEventInTimeline;
  const onMark = props.onMarkInTimeline;
  const onShowRow = props.onShowRowOnTimeline;
  // The column that names a summary row's events: the declared key text column.
  const nameCol = useMemo(() => {
    const key = rule.columns.find((c) => c.role === 'key' && c.kind === 'Text');
    return key ? findColumn(result, key.name) : -1;
  }, [rule, result]);
  // A paged result's spans and events come with its pages: one row's span as a one-row RowSpans.
  const spanNames = isPaged ? (result.spanNames ?? []) : result.spans.map((s) => s.name);
  const eventNames = isPaged ? (result.eventNames ?? []) : result.events.map((e) => e.name);
  const spanOf = (row: number, i: number): { span: RowSpans; row: number } | null => {
    if (isPaged) {
      const s = pages.span(row, i);
      return s ? { span: { name: spanNames[i], start: BigInt64Array.of(s[0]), end: BigInt64Array.of(s[1]) }, row: 0 } : null;
    }
    const s = result.spans[i];
    return s.start[row] !== INT64_MIN && s.end[row] !== INT64_MIN ? { span: s, row } : null;
  };
  const eventOf = (row: number, i: number) => (isPaged ? pages.event(row, i) : eventAt(result, row, i));
  const rowMenu =
    (onShow && spanNames.length > 0) || (onShowEvent && eventNames.length > 0) || (onMark && nameCol >= 0) || onShowRow
      ? (row: number, x: number, y: number) => {
          const spans = spanNames.map((_, i) => (onShow ? spanOf(row, i) : null));
          const events = eventNames.map((_, i) => (onShowEvent ? eventOf(row, i) : null));
          const items: MenuItem[] = rowTimelineItems(spanNames, spans.map((s) => s !== null), eventNames, events).map((it) => {
            if (it.kind === 'show') return { label: t.showOnTimeline(it.name), onSelect: () => onShowEvent!(it.event, it.name) };
            const { span: s, row: at } = spans[it.span]!;
            return it.kind === 'zoom'
              ? { label: t.zoomToInTimeline(s.name), onSelect: () => onShow!(s, at, true) }
              : { label: t.highlightInTimeline(s.name), onSelect: () => onShow!(s, at, false) };
          });
          const name = nameCol >= 0 ? ((isPaged ? pages.cell?.(row, nameCol) : cellDisplay(result, row, nameCol)) ?? '-') : '-';
          if (onShowRow) items.unshift({ label: t.showRowOnTimeline, onSelect: () => onShowRow(row) });
          if (onMark && name !== '-') items.push({ label: t.markInTimeline(name), onSelect: () => onMark(name) });
          if (items.length > 0) setMenu({ x, y, items });
        }
      : undefined;
  const tree = rule.treeLevels.length > 0 && !isPaged;
  // bench/browser-run.mjs: a paged result's table is shown once its first rows are.
  const firstShown = pages.firstPage !== null;
  useEffect(() => {
    if (isPaged && firstShown && typeof performance !== 'undefined' && performance.mark) {
      performance.mark('asys:table', { detail: { rule: rule.name, rows: result.rowCount, paged: true } });
    }
  }, [isPaged, firstShown, rule.name, result.rowCount]);
  const pagedError = pages.error ?? sortError ?? pagedSums.error ?? pagedEntries.error ?? sliceRows.error;

  const onSlice = (s: PieSlice | null) => {
    if (!s || filter?.slice === s.name) setFilter(null);
    else setFilter({ slice: s.name, keys: s.keys });
  };

  // The slice count as typed; applied when it is a number from 1 to 100.
  const [topText, setTopText] = useState(String(topN));
  const valueCol = pie && !pie.countRows ? findColumn(result, pie.valueColumn) : -1;
  const valueLabel = pie?.countRows ? 'rows' : valueCol >= 0 ? result.columns[valueCol].header : (pie?.valueColumn ?? '');

  return (
    <div
      className="result-view"
      onCopy={(e) => {
        // Copied cells and sums are plain numbers, as the CSV export writes them (the table groups the digits).
        const text = window.getSelection()?.toString() ?? '';
        if (!text.includes(THIN_SPACE)) return;
        e.clipboardData.setData('text/plain', ungroupDigits(text));
        e.preventDefault();
      }}
    >
      <div className="result-main">
        <div className="toolbar">
          <span className="row-count" data-testid="row-count">
            {t.rowsShown(formatInt(order.length), formatInt(result.rowCount), narrowed, result.rowCount === 1)}
          </span>
          <TableSearchBox search={search} />
          {filter && (
            <span className="filter-chip" data-testid="table-filter">
              <span className="muted">{keyColumn} =</span>{' '}
              <span className="ellipsis filter-value" title={filter.keys.join('\n')}>
                {filter.keys.length === 1 ? filter.keys[0] : `${filter.slice.trim()} (${filter.keys.length} keys)`}
              </span>
              <button className="link-button" onClick={() => setFilter(null)} aria-label={t.clearFilter}>
                ✕
              </button>
            </span>
          )}
          {selection.rows.size > 0 && (
            <span className="filter-chip" data-testid="selection">
              {t.selectedRows(formatInt(selection.rows.size))}
              <button className="link-button" onClick={() => setSelection(NO_SELECTION)} aria-label={t.clearSelection}>
                ✕
              </button>
            </span>
          )}
          <span className="spacer" />
          {tree && (
            <button className="button" onClick={() => setTreeOpen((o) => !o)} aria-pressed={treeOpen} data-testid="toggle-tree">
              {treeOpen ? t.hideTree : t.showTree}
            </button>
          )}
          {pie && (
            <button className="button" onClick={onToggleChart} aria-pressed={chartOpen} data-testid="toggle-chart">
              {chartOpen ? t.hideChart : t.showChart}
            </button>
          )}
          <ExportButtons onExport={onExport} exporting={exporting} />
          {result.files.map((f) => (
            <button
              key={f.name}
              className="button"
              onClick={() => downloadText(f.text, `${fileStem}_${f.name}`, 'text/plain;charset=utf-8')}
              data-testid="download-file"
            >
              {t.downloadFile(`${fileStem}_${f.name}`)}
            </button>
          ))}
        </div>
        {pagedError && (
          <div className="rule-error" role="alert" data-testid="paged-error">
            <EngineText text={pagedError} />
          </div>
        )}
        {result.warnings.length > 0 && (
          <ul className="result-warnings" data-testid="result-warnings" role="status">
            {result.warnings.map((w, i) => (
              <li key={i}>
                <EngineText text={w} />
              </li>
            ))}
          </ul>
        )}
        <div className="result-body">
          {tree && treeOpen && (
            <BreakdownTree
              result={result}
              levels={rule.treeLevels}
              order={order}
              onSelectRows={(rows) => setSelection({ rows: new Set(rows), anchor: rows[0] ?? null })}
            />
          )}
          {isPaged && !pages.firstPage ? (
            <div className="placeholder muted" data-testid="paged-loading">
              {t.running}
            </div>
          ) : (
            <ResultTable
              result={result}
              cell={pages.cell}
              absolute={pages.absolute}
              widthsFrom={pages.firstPage ?? undefined}
              onRowsShown={pages.onRowsShown}
              order={order}
              sort={applied?.sort ?? null}
              pendingSort={pending ? sort : null}
              onSort={requestSort}
              selectedRows={selection.rows}
              scrollToRow={focusRows?.rows[0] ?? null}
              onRowClick={(row, mods) => setSelection((sel) => clickRow(sel, row, mods, order))}
              onRowContextMenu={rowMenu}
              sums={sums}
              matches={search.mode === 'search' ? search.mask : null}
              currentMatch={search.currentMatch}
            />
          )}
        </div>
        {menu && <ContextMenu x={menu.x} y={menu.y} items={menu.items} onClose={() => setMenu(null)} />}
      </div>
      {pie && chartOpen && (
        <aside className="pie-panel" aria-label={t.pieChart}>
          <div className="pie-controls">
            <label>
              <span>{t.sliceBy}</span>
              <select
                className="input"
                value={keyColumn ?? ''}
                onChange={(e) => onPieKey(e.target.value)}
                data-testid="pie-key"
              >
                {pie.keyColumns.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>{t.slices}</span>
              <input
                className="input number small-number"
                type="number"
                min={1}
                max={100}
                value={topText}
                onChange={(e) => {
                  setTopText(e.target.value);
                  const v = Number(e.target.value);
                  if (Number.isInteger(v) && v >= 1 && v <= 100) onTopN(v);
                }}
                onBlur={() => setTopText(String(topN))}
                data-testid="pie-topn"
              />
            </label>
            <span className="pie-caption muted small">
              {pie.countRows ? t.numberOfRows : t.sumOf(valueLabel)}
            </span>
          </div>
          {isPaged && pagedPieCols && !pagedEntries.value && !pagedEntries.error ? (
            <div className="pie-empty muted" data-testid="pie-summing">
              {t.running}
            </div>
          ) : model ? (
            model.slices.length > 0 && model.total > 0 ? (
              <PieChart
                slices={model.slices}
                total={model.total}
                valueLabel={valueLabel}
                selected={filter?.slice ?? null}
                onSliceClick={onSlice}
              />
            ) : (
              <div className="pie-empty muted">{t.nothingToChart}</div>
            )
          ) : (
            <div className="pie-empty muted">
              {pie.countRows ? t.noChartKey(keyColumn ?? '') : t.noChartValue(pie.valueColumn, keyColumn ?? '')}
            </div>
          )}
        </aside>
      )}
    </div>
  );
}
