// The viewer's CSV export asks the engine for parts of CSV_PART_ROWS rows
// and joins them in a Blob (never one string): the parts it asks for, and
// the bytes it joins, for results of 0, 1 part and several parts.
import { describe, expect, it } from 'vitest';
import { CSV_PART_ROWS, exportCsvBlob } from '../../web/src/engine/engine_api';

// A stand-in engine whose CSV of `rows` rows is "h\n" then "r<i>\n" per row.
function engineOf(rows: number) {
  const asked: [number, number][] = [];
  const encoder = new TextEncoder();
  return {
    asked,
    renderCsvRows(_result: number, first: number, count: number) {
      asked.push([first, count]);
      let text = first === 0 ? 'h\n' : '';
      for (let r = first; r < Math.min(rows, first + count); r++) text += `r${r}\n`;
      return { ok: true, bytes: encoder.encode(text) };
    },
  };
}

const expected = (rows: number) => 'h\n' + Array.from({ length: rows }, (_, r) => `r${r}\n`).join('');

describe('exportCsvBlob', () => {
  it('asks for one part for an empty result: the header', async () => {
    const e = engineOf(0);
    expect(await exportCsvBlob(e, 1, 0).text()).toBe('h\n');
    expect(e.asked).toEqual([[0, CSV_PART_ROWS]]);
  });

  it('joins the parts of a result of several parts in order', async () => {
    const rows = 2 * CSV_PART_ROWS + 5;
    const e = engineOf(rows);
    const blob = exportCsvBlob(e, 1, rows);
    expect(blob.type).toBe('text/csv;charset=utf-8');
    expect(await blob.text()).toBe(expected(rows));
    expect(e.asked).toEqual([
      [0, CSV_PART_ROWS],
      [CSV_PART_ROWS, CSV_PART_ROWS],
      [2 * CSV_PART_ROWS, CSV_PART_ROWS],
    ]);
  });

  it('asks no part past the last row', async () => {
    const e = engineOf(CSV_PART_ROWS);
    expect(await exportCsvBlob(e, 1, CSV_PART_ROWS).text()).toBe(expected(CSV_PART_ROWS));
    expect(e.asked).toEqual([[0, CSV_PART_ROWS]]);
  });

  it("throws the engine's one-line error", () => {
    const failing = { renderCsvRows: () => ({ ok: false, error: 'no result with id 9' }) };
    expect(() => exportCsvBlob(failing, 9, 10)).toThrow('no result with id 9');
  });
});
