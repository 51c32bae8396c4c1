// The manual's device row of a PPU (core/timeline/device_row.cc): all its
// streams' kernels on the upper lane, their memcpys and memsets on the
// lower, memcpys coloured by direction (lib/timeline.ts MEMCPY_COLORS) and
// by the host memory they read or write: a copy from or to pageable memory
// has a pale lower half, one of pinned memory is solid. Pure: the label,
// the memory kinds of a slice, the order it is drawn in.
import type { TimelineTrackInfo } from '../engine/timeline_types';
import { shareText } from './timeline';

/** core/timeline MemKindClass, by its number: a slice's memKind byte is source << 4 | destination. */
export const MEM_KINDS = ['unknown', 'Pageable', 'Pinned', 'Device', 'Managed', 'other'] as const;
export const MEM_PAGEABLE = 1;
export const MEM_PINNED = 2;

/** A memcpy slice's memory kinds (indices into MEM_KINDS); null for a kernel or memset (0). */
export function memKindsOf(byte: number): { src: number; dst: number } | null {
  if (!byte) return null;
  const src = byte >> 4, dst = byte & 15;
  return { src: src < MEM_KINDS.length ? src : 0, dst: dst < MEM_KINDS.length ? dst : 0 };
}

/** Whether a copy reads or writes pageable host memory (drawn with a pale lower half). */
export function isPageable(byte: number): boolean {
  const k = memKindsOf(byte);
  return !!k && (k.src === MEM_PAGEABLE || k.dst === MEM_PAGEABLE);
}

/** What the pale lower half of a pageable copy is filled with, over its direction's colour. */
export const PAGEABLE_VEIL = 'rgba(255, 255, 255, 0.6)';

export interface DeviceRowWords {
  deviceRow: string;
  deviceRowKernels: string;
  deviceRowMemory: string;
}

/** "Device — kernels 93.1% · memory 4.0%": each half's share of the PPU's busy time (left out when it has none). */
export function deviceRowLabel(t: Pick<TimelineTrackInfo, 'kernelShare' | 'memoryShare'>, w: DeviceRowWords): string {
  const parts: string[] = [];
  if (t.kernelShare != null) parts.push(`${w.deviceRowKernels} ${shareText(t.kernelShare)}`);
  if (t.memoryShare != null) parts.push(`${w.deviceRowMemory} ${shareText(t.memoryShare)}`);
  return parts.length ? `${w.deviceRow} — ${parts.join(' · ')}` : w.deviceRow;
}

/**
 * The tracks with each device row's label in the page's language (its two
 * shares in it; the row's own share, 100% of its PPU by construction, left
 * out): the rows list and the canvas show `label`.
 */
export function withDeviceRowLabels<T extends Pick<TimelineTrackInfo, 'deviceRow' | 'kernelShare' | 'memoryShare' | 'label' | 'share'>>(
  tracks: T[],
  w: DeviceRowWords,
): T[] {
  if (!tracks.some((t) => t.deviceRow)) return tracks;
  return tracks.map((t) => (t.deviceRow ? { ...t, label: deviceRowLabel(t, w), share: null } : t));
}
