import { describe, expect, it } from 'vitest';
import {
  captureStartUtc,
  deviceCell,
  deviceColumnsOf,
  environmentOf,
  otherMeta,
  systemRows,
} from '../../web/src/lib/session_info';
import type { DeviceInfo } from '../../web/src/engine/types';

describe('session info', () => {
  it('reads the capture start as UTC from the report clock, to the nanosecond', () => {
    // fuser/report2.sqlite: utcEpochNs 1733861216912637995 at startTime 4760342086,
    // so epochOffset = 1733861212152295909 (the importer's subtraction, by hand).
    const meta: [string, string][] = [['epochOffset', '1733861212152295909']];
    expect(captureStartUtc({ captureStart: 4760342086n, meta })).toBe('2024-12-10 20:06:56.912637995 UTC');
    // 1700000000 s = 2023-11-14 22:13:20 UTC; 5 ns past it.
    expect(captureStartUtc({ captureStart: 5n, meta: [['epochOffset', '1700000000000000000']] })).toBe(
      '2023-11-14 22:13:20.000000005 UTC',
    );
    expect(captureStartUtc({ captureStart: 0n, meta: [] })).toBeNull(); // no clock: the generator's reports
    expect(captureStartUtc({ captureStart: null, meta })).toBeNull();
    expect(captureStartUtc({ captureStart: 0n, meta: [['epochOffset', '12a']] })).toBeNull();
  });

  it("lists the target system's entries in a fixed order and splits the environment", () => {
    const meta: [string, string][] = [
      ['system.CpuCores', '224'],
      ['system.OsDescription', 'Ubuntu 24.04.1 LTS'],
      ['system.CudaDriverVersion', ''],
      ['system.DeviceEnvironment', 'SHELL=/bin/bash;NPP_VERSION=12.3.3.100;;'],
      ['importedFrom', '/reports/4/workerfs/report2.sqlite'],
      ['epochOffset', '1'],
      ['nsysExportSchema', '3.15.1'],
    ];
    expect(systemRows(meta)).toEqual([
      ['OsDescription', 'Ubuntu 24.04.1 LTS'],
      ['CpuCores', '224'],
    ]);
    expect(environmentOf(meta)).toEqual(['SHELL=/bin/bash', 'NPP_VERSION=12.3.3.100']);
    expect(otherMeta(meta)).toEqual([
      ['importedFrom', 'report2.sqlite'],
      ['nsysExportSchema', '3.15.1'],
    ]);
  });

  it('shows the device attributes some device has, in units that read', () => {
    const a: DeviceInfo = {
      id: 0,
      name: 'PPU-ZW810E',
      attributes: { busLocation: '0000:3b:00.0', uuid: null, computeMajor: 9, computeMinor: 0, cuCount: 80,
        totalMemory: 103079215104, cuClock: 1980000000, memoryClock: null, peakFlopsBf16: 9.89e14, hbmBandwidth: 3.35e12 },
    };
    const b: DeviceInfo = { id: 1, name: 'x', attributes: { busLocation: null, uuid: null, cuCount: null } };
    expect(deviceColumnsOf([a, b])).toEqual(['busLocation', 'computeMajor', 'cuCount', 'totalMemory', 'cuClock',
      'peakFlopsBf16', 'hbmBandwidth']);
    const bytes = (n: number) => `${n} B`;
    expect(deviceCell(a, 'computeMajor', bytes)).toBe('9.0');
    expect(deviceCell(a, 'totalMemory', bytes)).toBe('103079215104 B');
    expect(deviceCell(a, 'cuClock', bytes)).toBe('1980 MHz');
    expect(deviceCell(a, 'peakFlopsBf16', bytes)).toBe('989.0 TFLOP/s');
    expect(deviceCell(a, 'hbmBandwidth', bytes)).toBe('3350.0 GB/s');
    expect(deviceCell(b, 'cuCount', bytes)).toBe('-');
    expect(deviceCell(b, 'computeMajor', bytes)).toBe('-');
  });
});
