// Types of events_sql.mjs for the end-to-end tests (TypeScript).

export function sqlRows(file: string, query: string): string[][];
export const STREAM_HEADERS: string[];
export function streamRows(file: string, device: number, context: number | null, stream: number, window?: [bigint, bigint] | null): string[][];
export function apiRows(file: string, globalTid: bigint): string[][];
export function streamPlace(track: { group: string; label: string; context?: string }): { device: number; stream: number; context: number | null } | null;
