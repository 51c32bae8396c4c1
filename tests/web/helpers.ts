// A hand-made runRule result in the shape the worker posts.
import type { RawRuleResult } from '../../web/src/engine/types';
import { decodeResult, type DecodedResult } from '../../web/src/lib/result';

export const NONE = 0xffffffff;

export interface ColumnInput {
  name: string;
  unit?: string;
  kind: 'int' | 'decimal1' | 'text';
  values: (number | string | null)[];
}

/** Builds a columnar result: text cells are interned into one NUL-joined pool. */
export function rawResult(columns: ColumnInput[]): RawRuleResult {
  const pool: string[] = [];
  const index = new Map<string, number>();
  const rowCount = columns[0]?.values.length ?? 0;
  const cells = columns.map((c) => {
    if (c.kind === 'text') {
      return Uint32Array.from(c.values, (v) => {
        if (v === null) return NONE;
        const s = String(v);
        if (!index.has(s)) {
          index.set(s, pool.length);
          pool.push(s);
        }
        return index.get(s)!;
      });
    }
    return Float64Array.from(c.values, (v) => (v === null ? NaN : Number(v)));
  });
  return {
    columns: columns.map((c) => ({ name: c.name, unit: c.unit ?? '', kind: c.kind })),
    rowCount,
    textPool: pool.join('\0'),
    cells,
  };
}

export function table(columns: ColumnInput[]): DecodedResult {
  return decodeResult(rawResult(columns));
}
