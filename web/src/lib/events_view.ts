// The Events view (docs/timeline.md, "The Events view"): a timeline row's
// events as a table in a pane below the timeline, as Nsight Systems' Events
// View lists them. The engine holds the rows (eventsView: a paged result);
// the table is the rules' own (ResultView), given a declaration of its
// columns here. Pure.
import type { TimelineTrackInfo } from '../engine/timeline_types';
import type { RuleDecl } from '../engine/types';
import type { DecodedResult } from './result';

/** The sheet an Events view exports to (XLSX) and the `data-rule` its table carries. */
export const EVENTS_VIEW_SHEET = 'events';

/** Whether a timeline row has events to list: a counter (a step chart) has none, nor an empty row. */
export function hasEventsView(track: Pick<TimelineTrackInfo, 'events' | 'counter'> | null | undefined): boolean {
  return !!track && !track.counter && track.events > 0;
}

/**
 * The declaration the result table reads for an Events view: its columns
 * as the engine answered them, no settings, no chart, Duration summed over
 * the selected rows (or all), its name the key a "Mark" item would use.
 */
export function eventsViewDecl(result: Pick<DecodedResult, 'columns'>): RuleDecl {
  return {
    name: EVENTS_VIEW_SHEET,
    command: 'stats',
    compare: false,
    compareShare: '',
    title: 'Events',
    titleZh: '事件',
    topic: '',
    description: '',
    descriptionZh: '',
    options: [],
    globalOptions: [],
    columns: result.columns.map((c) => ({
      name: c.name,
      unit: c.unit,
      kind: c.kind,
      help: '',
      header: c.header,
      role: c.name === 'Name' ? 'key' : 'value',
    })),
    needs: [],
    pie: null,
    sumColumns: result.columns.some((c) => c.name === 'Duration') ? ['Duration'] : [],
    summaryRow: '',
    treeLevels: [],
    available: true,
    missing: '',
  };
}

/** The file an Events view exports to, without extension: `<report>_events_<row>`, the row's label in safe characters. */
export function eventsExportStem(reportStem: string, track: Pick<TimelineTrackInfo, 'group' | 'label'>): string {
  const safe = (s: string) =>
    s
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60);
  const parts = [safe(track.group), safe(track.label)].filter((p) => p !== '');
  return `${reportStem}_events_${parts.join('_') || 'row'}`;
}
