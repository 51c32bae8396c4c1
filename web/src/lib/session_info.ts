// The summary page's session information (Nsight Systems' Analysis Summary:
// session, target system, environment, device attributes) from the engine's
// summary. Pure: the component only lays it out.
import type { DeviceInfo, ReportSummary } from '../engine/types';

/** The capture start as a UTC date and time, when the report knows its clock (META_DATA epochOffset). */
export function captureStartUtc(summary: Pick<ReportSummary, 'captureStart' | 'meta'>): string | null {
  const offset = metaValue(summary.meta, 'epochOffset');
  if (summary.captureStart === null || offset === null || !/^-?\d+$/.test(offset)) return null;
  const ns = summary.captureStart + BigInt(offset);
  if (ns < 0n) return null;
  const ms = ns / 1_000_000n;
  const date = new Date(Number(ms));
  if (Number.isNaN(date.getTime())) return null;
  // Whole milliseconds from the Date, the rest of the ns exactly.
  const subMs = String(ns % 1_000_000n).padStart(6, '0');
  return `${date.toISOString().slice(0, 23).replace('T', ' ')}${subMs} UTC`;
}

export function metaValue(meta: [string, string][], name: string): string | null {
  for (const [k, v] of meta) if (k === name) return v;
  return null;
}

/** The target system's entries an Nsight import carries (META_DATA system.NAME), in this order. */
export const SYSTEM_KEYS = [
  'OsDescription',
  'SoftwareReleaseVersion',
  'CpuDescription',
  'CpuCores',
  'CpuArchitecture',
  'NvDriverVersion',
  'CudaDriverVersion',
] as const;
export type SystemKey = (typeof SYSTEM_KEYS)[number];

export function systemRows(meta: [string, string][]): [SystemKey, string][] {
  const out: [SystemKey, string][] = [];
  for (const k of SYSTEM_KEYS) {
    const v = metaValue(meta, `system.${k}`);
    if (v !== null && v !== '') out.push([k, v]);
  }
  return out;
}

/** The target's environment variables (Nsight's DeviceEnvironment: "A=1;B=2;"), one per entry. */
export function environmentOf(meta: [string, string][]): string[] {
  const v = metaValue(meta, 'system.DeviceEnvironment');
  return v === null ? [] : v.split(';').filter((e) => e.trim() !== '');
}

/**
 * The META_DATA entries shown as they are: not the clock (shown as the start
 * time), not the system entries (shown above); a path without its folders
 * (the browser engine's own mount paths are no one's business).
 */
export function otherMeta(meta: [string, string][]): [string, string][] {
  return meta
    .filter(([k]) => k !== 'epochOffset' && !k.startsWith('system.'))
    .map(([k, v]) => [k, k === 'importedFrom' ? v.slice(v.lastIndexOf('/') + 1) : v]);
}

/** The device attribute columns the summary's table shows, in this order (TARGET_INFO_PPU names). */
export const DEVICE_COLUMNS = [
  'busLocation',
  'uuid',
  'computeMajor',
  'cuCount',
  'totalMemory',
  'cuClock',
  'memoryClock',
  'peakFlopsBf16',
  'hbmBandwidth',
] as const;
export type DeviceColumn = (typeof DEVICE_COLUMNS)[number];

/** The attribute columns any device has a value for: a column every device leaves unknown is left out. */
export function deviceColumnsOf(devices: DeviceInfo[]): DeviceColumn[] {
  return DEVICE_COLUMNS.filter((c) =>
    devices.some((d) => {
      const v = c === 'computeMajor' ? d.attributes.computeMajor : d.attributes[c];
      return v !== null && v !== undefined && v !== '';
    }),
  );
}

/** A device attribute as text: sizes in bytes, clocks in MHz, FLOP/s in TFLOP/s, bandwidth in GB/s. */
export function deviceCell(d: DeviceInfo, c: DeviceColumn, bytes: (n: number) => string): string {
  const a = d.attributes;
  const num = (k: string): number | null => (typeof a[k] === 'number' ? (a[k] as number) : null);
  switch (c) {
    case 'computeMajor': {
      const major = num('computeMajor');
      const minor = num('computeMinor');
      return major === null ? '-' : `${major}.${minor ?? 0}`;
    }
    case 'totalMemory': {
      const v = num(c);
      return v === null ? '-' : bytes(v);
    }
    case 'cuClock':
    case 'memoryClock': {
      const v = num(c);
      return v === null ? '-' : `${Math.round(v / 1e6)} MHz`;
    }
    case 'peakFlopsBf16': {
      const v = num(c);
      return v === null ? '-' : `${(v / 1e12).toFixed(1)} TFLOP/s`;
    }
    case 'hbmBandwidth': {
      const v = num(c);
      return v === null ? '-' : `${(v / 1e9).toFixed(1)} GB/s`;
    }
    default: {
      const v = a[c];
      return v === null || v === undefined || v === '' ? '-' : String(v);
    }
  }
}
