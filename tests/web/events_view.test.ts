// The Events view's pure part (lib/events_view.ts) on hand-made inputs:
// which timeline rows have one, the declaration the result table reads, and
// the exported file's name.
import { describe, expect, it } from 'vitest';
import { eventsExportStem, eventsViewDecl, hasEventsView } from '../../web/src/lib/events_view';
import type { ResultColumn } from '../../web/src/lib/result';

const column = (name: string, unit = '', kind: ResultColumn['kind'] = 'Int'): ResultColumn => ({
  name,
  unit,
  kind,
  header: unit ? `${name} (${unit})` : name,
  numeric: kind !== 'Text',
  grouped: kind !== 'Text',
  timePoint: name === 'Start',
});

describe('hasEventsView', () => {
  it('is true for a row with events and false for a counter, an empty row or none', () => {
    expect(hasEventsView({ events: 3, counter: null })).toBe(true);
    expect(hasEventsView({ events: 0, counter: null })).toBe(false);
    expect(hasEventsView({ events: 0, counter: { unit: 'B', integer: true, max: 10n } })).toBe(false);
    expect(hasEventsView(undefined)).toBe(false);
  });
});

describe('eventsViewDecl', () => {
  it("declares the result's columns, Name as the key, Duration summed, no chart, no tree, no settings", () => {
    const decl = eventsViewDecl({ columns: [column('Name', '', 'Text'), column('Start', 'ns'), column('Duration', 'ns'), column('CorrId')] });
    expect(decl.columns.map((c) => [c.header, c.kind, c.role])).toEqual([
      ['Name', 'Text', 'key'],
      ['Start (ns)', 'Int', 'value'],
      ['Duration (ns)', 'Int', 'value'],
      ['CorrId', 'Int', 'value'],
    ]);
    expect(decl.sumColumns).toEqual(['Duration']);
    expect(decl.pie).toBeNull();
    expect(decl.treeLevels).toEqual([]);
    expect(decl.options).toEqual([]);
    expect(decl.summaryRow).toBe('');
  });
  it('sums nothing without a Duration column', () => {
    expect(eventsViewDecl({ columns: [column('Name', '', 'Text')] }).sumColumns).toEqual([]);
  });
});

describe('eventsExportStem', () => {
  it("names the file after the report and the row, in safe characters", () => {
    expect(eventsExportStem('demo-base', { group: 'PPU 0 (PPU-ZW810E)', label: 'Stream 7' })).toBe('demo-base_events_PPU_0_PPU-ZW810E_Stream_7');
    expect(eventsExportStem('r', { group: 'Process 12 (python3)', label: 'Thread 12 (python3) HGGC API' })).toBe(
      'r_events_Process_12_python3_Thread_12_python3_HGGC_API',
    );
    expect(eventsExportStem('r', { group: '', label: '***' })).toBe('r_events_row');
  });
});
