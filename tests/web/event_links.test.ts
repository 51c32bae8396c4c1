// Rule rows and timeline events linked by identity (lib/event_links.ts),
// on hand-made results: a row's event, the rule of a slice's kind, and a
// row's timeline menu items.
import { describe, expect, it } from 'vitest';
import { WIRE_EVENT_TABLES } from '../../web/src/engine/bridge_schema.gen';
import { SLICE_KINDS } from '../../web/src/engine/timeline_types';
import { eventAt, ruleOfSliceKind, rowTimelineItems } from '../../web/src/lib/event_links';
import type { DecodedResult } from '../../web/src/lib/result';

const code = (t: (typeof WIRE_EVENT_TABLES)[number]) => WIRE_EVENT_TABLES.indexOf(t);

/** A result of three rows with one event kind: a kernel, no event, a memcpy. */
function result(): DecodedResult {
  return {
    columns: [],
    rowCount: 3,
    texts: [],
    cells: [],
    exact: [],
    spans: [],
    events: [{ name: 'Activity', table: Uint8Array.of(code('kernel'), code('none'), code('memcpy')), index: Uint32Array.of(41, 0, 7) }],
    warnings: [],
    files: [],
    zero: null,
  };
}

describe('eventAt', () => {
  it("reads a row's report table by its bridge code and its row", () => {
    // Codes: none 0, kernel 1, memcpy 2 (kEventTableNames' order).
    expect(code('kernel')).toBe(1);
    expect(eventAt(result(), 0, 0)).toEqual({ table: 'kernel', index: 41 });
    expect(eventAt(result(), 2, 0)).toEqual({ table: 'memcpy', index: 7 });
  });

  it('a row without an event, a row past the result and an undeclared event are null', () => {
    expect(eventAt(result(), 1, 0)).toBeNull();
    expect(eventAt(result(), 3, 0)).toBeNull();
    expect(eventAt(result(), 0, 1)).toBeNull();
  });
});

describe('ruleOfSliceKind', () => {
  const rule = (k: (typeof SLICE_KINDS)[number]) => ruleOfSliceKind(SLICE_KINDS.indexOf(k));
  it('PPU work is in hggc_ppu_trace (a PCCL kernel too), calls in hggc_api_trace, ranges in hgtx_pushpop_trace', () => {
    expect([rule('kernel'), rule('memcpy'), rule('memset'), rule('pcclKernel')]).toEqual(Array(4).fill('hggc_ppu_trace'));
    expect([rule('api'), rule('apiError')]).toEqual(['hggc_api_trace', 'hggc_api_trace']);
    expect(rule('hgtx')).toBe('hgtx_pushpop_trace');
  });
  it('OSRT calls, PCCL stages, projections and unknown kinds have no table', () => {
    expect([rule('osrt'), rule('pcclStage'), rule('projection'), ruleOfSliceKind(99)]).toEqual([null, null, null, null]);
  });
});

describe('rowTimelineItems', () => {
  const kernel = { table: 'kernel' as const, index: 5 };
  const range = { table: 'hgtx' as const, index: 2 };

  it('a trace row with an event only (hggc_ppu_trace): Show on timeline', () => {
    expect(rowTimelineItems([], [], ['Activity'], [kernel])).toEqual([{ kind: 'show', name: 'Activity', event: kernel }]);
  });

  it('a span with an event of its name: Zoom to it, then Show the event in place of Highlight', () => {
    // hgtx_kern_trace: spans HGTX Range and Device Activity, events of the same names.
    const items = rowTimelineItems(['HGTX Range', 'Device Activity'], [true, true], ['HGTX Range', 'Device Activity'], [range, kernel]);
    expect(items).toEqual([
      { kind: 'zoom', name: 'HGTX Range', span: 0 },
      { kind: 'show', name: 'HGTX Range', event: range },
      { kind: 'zoom', name: 'Device Activity', span: 1 },
      { kind: 'show', name: 'Device Activity', event: kernel },
    ]);
  });

  it('a span whose event the row lacks (a start/end range) keeps Highlight; a span the row lacks gives nothing', () => {
    const items = rowTimelineItems(['HGTX Range', 'Device Activity'], [true, false], ['HGTX Range', 'Device Activity'], [null, kernel]);
    // Device Activity has no span on this row: its event comes after the spans' items.
    expect(items).toEqual([
      { kind: 'zoom', name: 'HGTX Range', span: 0 },
      { kind: 'highlight', name: 'HGTX Range', span: 0 },
      { kind: 'show', name: 'Device Activity', event: kernel },
    ]);
  });

  it('a span of no event name (pccl_desync_trace\'s communication) keeps Zoom and Highlight', () => {
    const items = rowTimelineItems(['PCCL Communication', 'Last Kernel'], [true, true], ['Last Kernel'], [kernel]);
    expect(items.map((i) => `${i.kind} ${i.name}`)).toEqual([
      'zoom PCCL Communication',
      'highlight PCCL Communication',
      'zoom Last Kernel',
      'show Last Kernel',
    ]);
  });
});
