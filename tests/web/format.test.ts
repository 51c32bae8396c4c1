import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatDecimal1,
  formatDurationNs,
  formatInt,
  THIN_SPACE as T,
  ungroupDigits,
} from '../../web/src/lib/format';

describe('formatInt', () => {
  it('groups digits by three with thin spaces', () => {
    expect(formatInt(393100090)).toBe(`393${T}100${T}090`);
    expect(formatInt(1149415)).toBe(`1${T}149${T}415`);
    expect(formatInt(103079215104)).toBe(`103${T}079${T}215${T}104`);
    expect(formatInt(1000)).toBe(`1${T}000`);
    expect(formatInt(999)).toBe('999');
    expect(formatInt(0)).toBe('0');
  });
  it('keeps the sign and truncates', () => {
    expect(formatInt(-1234)).toBe(`-1${T}234`);
    expect(formatInt(-1)).toBe('-1');
    expect(formatInt(12.9)).toBe('12');
  });
  it('writes "-" for a missing value', () => {
    expect(formatInt(NaN)).toBe('-');
    expect(formatInt(Infinity)).toBe('-');
  });
  it('keeps exact digits past 2^53', () => {
    expect(formatInt(2 ** 60)).toBe(`1${T}152${T}921${T}504${T}606${T}846${T}976`);
  });
});

describe('formatDecimal1', () => {
  it('always writes one decimal', () => {
    expect(formatDecimal1(84.9)).toBe('84.9');
    expect(formatDecimal1(100)).toBe('100.0');
    expect(formatDecimal1(0)).toBe('0.0');
    expect(formatDecimal1(2.25)).toBe('2.3'); // 2.25 is exact in binary: ties go up
  });
  it('groups the integer part only', () => {
    expect(formatDecimal1(12345.5)).toBe(`12${T}345.5`);
    expect(formatDecimal1(-1234.5)).toBe(`-1${T}234.5`);
  });
  it('has no negative zero and writes "-" for NaN', () => {
    expect(formatDecimal1(-0.04)).toBe('0.0');
    expect(formatDecimal1(NaN)).toBe('-');
  });
});

describe('summary formats', () => {
  it('picks a readable time unit', () => {
    expect(formatDurationNs(15000)).toBe('15.0 µs');
    expect(formatDurationNs(2_500_000)).toBe('2.5 ms');
    expect(formatDurationNs(3_000_000_000)).toBe('3.000 s');
    expect(formatDurationNs(890)).toBe('890 ns');
  });
  it('writes sizes in binary units', () => {
    expect(formatBytes(36864)).toBe('36.0 KiB');
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(3 * 1024 * 1024 + 512 * 1024)).toBe('3.5 MiB');
  });
  it('counts rows', () => {
    expect(formatCount(1)).toBe('1 row');
    expect(formatCount(0)).toBe('0 rows');
    expect(formatCount(1234567)).toBe(`1${T}234${T}567 rows`);
  });
});

describe('copied text is plain', () => {
  it('drops the group separators between digits only', () => {
    expect(ungroupDigits(`393${T}100${T}090`)).toBe('393100090');
    expect(ungroupDigits(`-1${T}234.5\t12${T}345`)).toBe('-1234.5\t12345');
    expect(ungroupDigits(formatInt(2 ** 60))).toBe('1152921504606846976');
    expect(ungroupDigits(`a${T}1 b`)).toBe(`a${T}1 b`);
  });
  it('groups the same way whatever the interface language (no locale in the format)', () => {
    // formatInt takes no language: lang=zh shows what lang=en shows.
    expect(formatInt(1234567)).toBe(`1${T}234${T}567`);
    expect(formatDecimal1(1234567.25)).toBe(`1${T}234${T}567.3`);
  });
});
