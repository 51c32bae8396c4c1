import { expect, it } from 'vitest';
import { columnWidths } from '../../web/src/components/ResultTable';
import { table } from './helpers';

// One px per character: widths read as character counts.
const chars = (text: string) => text.length;

it('makes a summed column as wide as the sum of its cells, so its sums cell is never cut off', () => {
  const t = table([
    { name: 'T', kind: 'int', values: [900_000_000, 800_000_000, null] },
    { name: 'Count', kind: 'int', values: [7, 8, 9] },
  ]);
  // Header "T": 1 + 11 (the sort mark) = 12; the widest cell "900 000 000": 11.
  expect(columnWidths(t, chars)[0]).toBe(12);
  // The sum "1 700 000 000": 13 characters, bold x1.1 = 14.3 -> 15.
  const [summed, count] = columnWidths(t, chars, new Set([0]));
  expect(summed).toBe(15);
  // A column not summed keeps its own width.
  expect(count).toBe(columnWidths(t, chars)[1]);
});
