import { describe, expect, it } from 'vitest';
import {
  decodeTextPool,
  takeRunResult,
  takeSortOrder,
  takeTimeWindow,
  type AsysEngine,
} from '../../web/src/engine/engine_api';
import { cellAbsolute, cellDisplay, cellKey, cellValue, decodeResult, displayNumber, findColumn, toRows } from '../../web/src/lib/result';
import { THIN_SPACE as T } from '../../web/src/lib/format';
import { NONE, rawResult } from './helpers';

// hggc_api_sum's first rows from the rule documentation, trimmed to three columns.
const raw = () =>
  rawResult([
    { name: 'Time', unit: '%', kind: 'decimal1', values: [84.9, 4.3, null] },
    { name: 'Total Time', unit: 'ns', kind: 'int', values: [393100090, 19851112, 13492044] },
    { name: 'Name', kind: 'text', values: ['hgMemcpyHtoDAsync_v2', null, 'hgMemcpyHtoDAsync_v2'] },
  ]);

describe('decodeResult', () => {
  it('reads columns, headers and kinds', () => {
    const t = decodeResult(raw());
    expect(t.rowCount).toBe(3);
    expect(t.columns.map((c) => c.header)).toEqual(['Time (%)', 'Total Time (ns)', 'Name']);
    expect(t.columns.map((c) => c.kind)).toEqual(['Decimal1', 'Int', 'Text']);
    expect(t.columns.map((c) => c.numeric)).toEqual([true, true, false]);
  });

  it('turns cells into values, NaN and 0xFFFFFFFF into null', () => {
    expect(toRows(decodeResult(raw()))).toEqual([
      [84.9, 393100090, 'hgMemcpyHtoDAsync_v2'],
      [4.3, 19851112, null],
      [null, 13492044, 'hgMemcpyHtoDAsync_v2'],
    ]);
  });

  it('displays numbers grouped, decimals with one digit, "-" for missing', () => {
    const t = decodeResult(raw());
    expect(cellDisplay(t, 0, 0)).toBe('84.9');
    expect(cellDisplay(t, 0, 1)).toBe(`393${T}100${T}090`);
    expect(cellDisplay(t, 1, 2)).toBe('-');
    expect(cellDisplay(t, 2, 0)).toBe('-');
    expect(cellKey(t, 0, 1)).toBe('393100090');
    expect(cellKey(t, 1, 0)).toBe('4.3');
  });

  it('writes identifiers without digit groups', () => {
    const t = decodeResult(
      rawResult([
        { name: 'PID', kind: 'int', values: [1051054] },
        { name: 'Device ID', kind: 'int', values: [12345] },
        { name: 'DevId', kind: 'int', values: [1000] },
        { name: 'Correlation ID', kind: 'int', values: [1000] },
        { name: 'Instances', kind: 'int', values: [1000] },
        { name: 'Kernel Start', unit: 'ns', kind: 'int', values: [379447257] },
        { name: 'Last Process', kind: 'int', values: [1142413] },
        { name: 'Last Kernel', kind: 'int', values: [38654] },
      ]),
    );
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((c) => cellDisplay(t, 0, c))).toEqual([
      '1051054',
      '12345',
      '1000',
      '1000',
      `1${T}000`,
      `379${T}447${T}257`,
      '1142413',
      '38654',
    ]);
  });

  it('trusts the array type over a missing or odd kind', () => {
    const r = raw();
    r.columns = r.columns.map((c) => ({ name: c.name, unit: c.unit, kind: '' }));
    const t = decodeResult(r);
    expect(t.columns.map((c) => c.kind)).toEqual(['Int', 'Int', 'Text']);
    expect(cellValue(t, 0, 2)).toBe('hgMemcpyHtoDAsync_v2');
  });

  it('uses the header the engine sends', () => {
    const r = raw();
    r.columns[1].header = 'Total Time (ns)';
    expect(decodeResult(r).columns[1].header).toBe('Total Time (ns)');
    expect(findColumn(decodeResult(r), 'Total Time')).toBe(1);
    expect(findColumn(decodeResult(r), 'Time (%)')).toBe(0);
    expect(findColumn(decodeResult(r), 'Nope')).toBe(-1);
  });

  it('rejects a column shorter than rowCount', () => {
    const r = raw();
    r.rowCount = 4;
    expect(() => decodeResult(r)).toThrow(/column 1 \(Time \(%\)\) has 3 cells, expected 4/);
  });

  it('reads an empty result', () => {
    const t = decodeResult({ columns: [{ name: 'Name', unit: '', kind: 'text' }], rowCount: 0, textPool: '', cells: [new Uint32Array(0)] });
    expect(t.rowCount).toBe(0);
    expect(toRows(t)).toEqual([]);
  });
});

describe('the worker side of run', () => {
  const engine = {} as AsysEngine;
  const utf8 = (s: string) => new TextEncoder().encode(s);

  it('decodes the UTF-8 text pool whose texts each end with NUL', () => {
    expect(decodeTextPool(utf8('gemm\0reduce_kernel\0')).split('\0')).toEqual(['gemm', 'reduce_kernel']);
    expect(decodeTextPool(utf8('内核\0µs\0')).split('\0')).toEqual(['内核', 'µs']);
    // An empty text is kept; an empty pool decodes to nothing.
    expect(decodeTextPool(utf8('a\0\0')).split('\0')).toEqual(['a', '']);
    expect(decodeTextPool(utf8(''))).toBe('');
    // A string joined by NUL (the documented contract) passes as it is.
    expect(decodeTextPool('a\0b')).toBe('a\0b');
  });

  it('makes plain transferable arrays, copying views into a shared buffer', () => {
    const heap = new ArrayBuffer(64);
    const view = new Float64Array(heap, 8, 2);
    view.set([5, 7]);
    const own = Uint32Array.from([1, NONE]);
    const out = takeRunResult(
      {
        ok: true,
        columns: [
          { name: 'Total Time', unit: 'ns', header: 'Total Time (ns)', kind: 'int' },
          { name: 'Name', unit: '', header: 'Name', kind: 'text' },
        ],
        rowCount: 2,
        cells: [view, own],
        textPool: utf8('x\0y\0'),
      },
      engine,
    );
    expect(out.cells[0]).not.toBe(view);
    expect(out.cells[0].buffer.byteLength).toBe(16);
    expect(Array.from(out.cells[0] as Float64Array)).toEqual([5, 7]);
    expect(out.cells[1]).toBe(own);
    const t = decodeResult(out);
    expect(toRows(t)).toEqual([
      [5, 'y'],
      [7, null],
    ]);
  });

  it('reads row spans as exact int64 times, beyond 2^53', () => {
    // Epoch nanoseconds (Kineto) are above 2^53: a double would round them.
    const starts = new BigInt64Array([1700000000000000001n, -9223372036854775808n]);
    const ends = new BigInt64Array([1700000000000000999n, -9223372036854775808n]);
    const bytes = (a: BigInt64Array) => new Uint8Array(a.buffer.slice(0));
    const out = takeRunResult(
      {
        ok: true,
        columns: [{ name: 'Start', unit: 'ns', header: 'Start (ns)', kind: 'int' }],
        rowCount: 2,
        cells: [Float64Array.from([1, 2])],
        textPool: utf8(''),
        spans: [{ name: 'HGTX Range', start: bytes(starts), end: bytes(ends) }],
      },
      engine,
    );
    expect(out.spans).toHaveLength(1);
    expect(out.spans![0].name).toBe('HGTX Range');
    expect(Array.from(out.spans![0].start)).toEqual([1700000000000000001n, -9223372036854775808n]);
    expect(out.spans![0].end[0] - out.spans![0].start[0]).toBe(998n);
    expect(decodeResult(out).spans[0].end[0]).toBe(1700000000000000999n);
    // A span column of the wrong length is the engine's fault, said plainly.
    expect(() =>
      takeRunResult(
        { ok: true, columns: [], rowCount: 2, cells: [], textPool: '', spans: [{ name: 'x', start: new Uint8Array(8), end: new Uint8Array(16) }] },
        engine,
      ),
    ).toThrow('run: a row span is not 2 int64 values');
  });

  it('reads integer cells as exact int64, shows them exactly past 2^53 and "-" for INT64_MIN', () => {
    const ints = new BigInt64Array([1700000000000000001n, 42n, -9223372036854775808n]);
    const out = takeRunResult(
      {
        ok: true,
        result: 7,
        columns: [
          { name: 'Start', unit: 'ns', header: 'Start (ns)', kind: 'int' },
          { name: 'Count', unit: '', header: 'Count', kind: 'int' },
        ],
        rowCount: 3,
        cells: [new Uint8Array(ints.buffer.slice(0)), new Uint8Array(new BigInt64Array([1n, 2n, 3n]).buffer)],
        textPool: utf8(''),
      },
      engine,
    );
    expect(out.resultId).toBe(7);
    expect(out.cells[0]).toBeInstanceOf(BigInt64Array);
    const t = decodeResult(out);
    // The first column has a value a double cannot hold: it keeps its int64 cells.
    expect(t.exact[0]).not.toBeNull();
    expect(t.exact[1]).toBeNull();
    expect(cellDisplay(t, 0, 0)).toBe('1\u202f700\u202f000\u202f000\u202f000\u202f000\u202f001');
    expect(cellDisplay(t, 1, 0)).toBe('42');
    expect(cellDisplay(t, 2, 0)).toBe('-');
    expect(toRows(t)[0]).toEqual([1700000000000000001n, 1]);
  });

  it("carries the rule's warnings to the view", () => {
    const warning = '1 kernel has no launching HGGC API call in its process';
    const out = takeRunResult({ ok: true, columns: [], rowCount: 0, cells: [], textPool: '', warnings: [warning] }, engine);
    expect(decodeResult(out).warnings).toEqual([warning]);
    expect(decodeResult(takeRunResult({ ok: true, columns: [], rowCount: 0, cells: [], textPool: '' }, engine)).warnings).toEqual([]);
  });

  it("throws the engine's error text", () => {
    expect(() => takeRunResult({ ok: false, error: 'r.asysrep does not contain OS runtime API data' }, engine)).toThrow(
      'r.asysrep does not contain OS runtime API data',
    );
  });
});

describe('sortOrder and setTimeFilter answers', () => {
  const engine = {} as AsysEngine;

  it('copies a row order that views a shared buffer and checks its length', () => {
    const heap = new ArrayBuffer(32);
    const view = new Uint32Array(heap, 4, 3);
    view.set([2, 0, 1]);
    const order = takeSortOrder({ ok: true, order: view }, engine, 3);
    expect(Array.from(order)).toEqual([2, 0, 1]);
    expect(order.buffer).not.toBe(heap);
    expect(() => takeSortOrder({ ok: true, order: view }, engine, 4)).toThrow('sortOrder: 3 rows, the result has 4');
    expect(() => takeSortOrder({ ok: true }, engine)).toThrow('no row order');
    expect(() => takeSortOrder({ ok: false, error: 'the result has no column 9' }, engine)).toThrow('no column 9');
  });

  it('reads the window with open sides as null', () => {
    expect(takeTimeWindow({ ok: true, window: null })).toBeNull();
    expect(takeTimeWindow({ ok: true, window: [1000n, 2000n] })).toEqual([1000n, 2000n]);
    // Exact past 2^53 (epoch nanoseconds).
    expect(takeTimeWindow({ ok: true, window: [1700000000000000001n, 1700000000000000999n] })).toEqual([
      1700000000000000001n,
      1700000000000000999n,
    ]);
    expect(takeTimeWindow({ ok: true, window: [-9223372036854775808n, 100000000n] })).toEqual([null, 100000000n]);
    expect(takeTimeWindow({ ok: true, window: [5n, 9223372036854775807n] })).toEqual([5n, null]);
    expect(() => takeTimeWindow({ ok: false, error: '--filter-hgtx: no range' })).toThrow('--filter-hgtx: no range');
  });
});

describe('time columns from the report\'s time zero (issue 23)', () => {
  // A Kineto-like trace: epoch ns past 2^53, the capture start 1694128201424306000.
  const zero = 1694128201424306000n;
  const epochTrace = (z: bigint | null) =>
    decodeResult(
      {
        columns: [
          { name: 'Start', unit: 'ns', kind: 'int' },
          { name: 'Duration', unit: 'ns', kind: 'int' },
          { name: 'PID', unit: '', kind: 'int' },
        ],
        rowCount: 3,
        textPool: '',
        cells: [
          new BigInt64Array([zero + 80_000n, zero + 215_200_123n, -9223372036854775808n]),
          new BigInt64Array([30_000n, 1_000n, 5n]),
          new BigInt64Array([100n, 100n, 100n]),
        ],
      },
      z,
    );

  it('shows a Start cell as ns since the zero, grouped, and its absolute ns exactly', () => {
    const t = epochTrace(zero);
    expect(t.columns.map((c) => c.timePoint)).toEqual([true, false, false]);
    // 1694128201424386000 - 1694128201424306000 = 80000; + 215200123 -> "215 200 123".
    expect(cellDisplay(t, 0, 0)).toBe(`80${T}000`);
    expect(cellDisplay(t, 1, 0)).toBe(`215${T}200${T}123`);
    expect(cellDisplay(t, 2, 0)).toBe('-');
    expect(cellAbsolute(t, 0, 0)).toBe(1694128201424386000n);
    expect(cellAbsolute(t, 1, 0)).toBe(1694128201639506123n);
    expect(cellAbsolute(t, 2, 0)).toBeNull();
    // Durations and identifiers are not times on the clock.
    expect(cellDisplay(t, 0, 1)).toBe(`30${T}000`);
    expect(cellAbsolute(t, 0, 1)).toBeNull();
    expect(cellDisplay(t, 0, 2)).toBe('100');
    // The values (sort, keys, exports) stay absolute.
    expect(cellValue(t, 0, 0)).toBe(1694128201424386000n);
    expect(cellKey(t, 0, 0)).toBe('1694128201424386000');
    expect(displayNumber(t, 0, 1694128201424386000n, false)).toBe('80000');
  });

  it('without a zero a result shows its cells as they are (compare results)', () => {
    const t = epochTrace(null);
    expect(cellDisplay(t, 0, 0)).toBe(`1${T}694${T}128${T}201${T}424${T}386${T}000`);
    expect(cellAbsolute(t, 0, 0)).toBeNull();
  });

  it('a double column: the demo\'s zero 0 shows the value, another zero moves it', () => {
    const raw = rawResult([{ name: 'API Start', unit: 'ns', kind: 'int', values: [371_400_000, null] }]);
    expect(cellDisplay(decodeResult(raw, 0n), 0, 0)).toBe(`371${T}400${T}000`);
    expect(cellDisplay(decodeResult(raw, 156_200_000n), 0, 0)).toBe(`215${T}200${T}000`);
    expect(cellAbsolute(decodeResult(raw, 156_200_000n), 0, 0)).toBe(371_400_000n);
    expect(cellDisplay(decodeResult(raw, 156_200_000n), 1, 0)).toBe('-');
  });
});
