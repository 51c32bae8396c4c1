// A million-row result through the viewer's logic: decode, column widths,
// pie, slice filter and sorts stay correct (their speed is bench/'s, not a
// unit test's: no timing is asserted).
import { expect, it } from 'vitest';
import { decodeTextPool } from '../../web/src/engine/engine_api';
import { columnWidths } from '../../web/src/components/ResultTable';
import { filterRowsByKeys, pieModel } from '../../web/src/lib/pie';
import { cellValue, decodeResult, identityOrder } from '../../web/src/lib/result';
import { sortRows } from '../../web/src/lib/sort';

it('handles a million rows', () => {
  const N = 1_000_000;
  // Names "api_0000000".."api_0999999"; Total Time (i * 7919) % 1000003: distinct, row 0 has 0.
  const names = Array.from({ length: N }, (_, i) => `api_${String(i).padStart(7, '0')}`);
  const pool = decodeTextPool(new TextEncoder().encode(names.join('\0') + '\0'));
  const total = Float64Array.from({ length: N }, (_, i) => (i * 7919) % 1000003);
  const t = decodeResult({
    columns: [
      { name: 'Total Time', unit: 'ns', kind: 'int' },
      { name: 'Name', unit: '', kind: 'text' },
    ],
    rowCount: N,
    textPool: pool,
    cells: [total, Uint32Array.from({ length: N }, (_, i) => N - 1 - i)],
  });
  expect(t.texts.length).toBe(N);
  expect(columnWidths(t)).toHaveLength(2);

  // The largest value: max over i of (i * 7919) % 1000003 -- found by a plain loop.
  let best = 0;
  for (let i = 1; i < N; i++) if (total[i] > total[best]) best = i;
  const pie = pieModel(t, 'Total Time', 'Name', 10)!;
  expect(pie.slices).toHaveLength(11);
  // "Other" (everything but ten keys) is the largest slice, then the largest key.
  expect(pie.slices[0].other).toBe(true);
  expect(pie.slices[1].name).toBe(names[N - 1 - best]);
  expect(pie.slices[1].value).toBe(total[best]);
  const other = pie.slices[0];
  expect(other.keys).toHaveLength(N - 10);
  expect(filterRowsByKeys(t, 1, other.keys)).toHaveLength(N - 10);

  const byValue = sortRows(t, identityOrder(N), 0, 'desc');
  expect(byValue[0]).toBe(best);
  expect(cellValue(t, byValue[N - 1], 0)).toBe(0);
  const byName = sortRows(t, identityOrder(N), 1, 'asc');
  expect(cellValue(t, byName[0], 1)).toBe('api_0000000');
  expect(cellValue(t, byName[N - 1], 1)).toBe('api_0999999');
}, 180_000);
