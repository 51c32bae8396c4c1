// The manual's graph rows (core/timeline/graph_rows.cc; docs/timeline.md,
// "Graph rows"): under a stream, one row per graph exec launched on it, a
// slice per launch spanning the activities it ran there. Pure: the row's
// label in the page's language, a launch's lines for the tooltip and the
// details panel. Tests: tests/web/graph_rows.test.ts.
import type { TimelineTrackInfo } from '../engine/timeline_types';
import { formatDurationNs, formatInt } from './format';

type GraphTrack = Pick<TimelineTrackInfo, 'graphOf' | 'graph' | 'exec' | 'graphNotes' | 'events' | 'label'>;

/** The words the labels and lines are made of (i18n/messages.ts has them in each language). */
export interface GraphWords {
  /** "Graph 1 → exec 2"; graph null: "Graph exec 2" (the graph it was instantiated from unknown). */
  graphRowLabel: (graph: string | null, exec: string) => string;
  graphLaunchOf: (label: string, n: string, of: string) => string;
  graphLaunchNodes: (nodes: string, kernels: string, memcpys: string, memsets: string) => string;
  graphLaunchBusy: (busy: string, span: string) => string;
  graphLaunchCall: (correlationId: string) => string;
}

/** Whether a row is a graph row. */
export function isGraphRow(t: Pick<TimelineTrackInfo, 'graphOf'> | null | undefined): boolean {
  return t?.graphOf !== undefined;
}

/** The row's label in the page's language; its engine label when it is not a graph row or names no exec. */
export function graphRowLabel(t: GraphTrack, w: Pick<GraphWords, 'graphRowLabel'>): string {
  if (!isGraphRow(t) || t.exec === undefined) return t.label;
  return w.graphRowLabel(t.graph == null ? null : String(t.graph), String(t.exec));
}

/** The tracks with each graph row's label in the page's language (the same array when there is none). */
export function withGraphRowLabels<T extends GraphTrack>(tracks: T[], w: Pick<GraphWords, 'graphRowLabel'>): T[] {
  if (!tracks.some(isGraphRow)) return tracks;
  return tracks.map((t) => (isGraphRow(t) ? { ...t, label: graphRowLabel(t, w) } : t));
}

/**
 * What launch `event` of a graph row says beyond its name, start and
 * duration, one line each: which launch of the row it is, the nodes it ran
 * on the stream by kind, its busy time inside its span (`spanNs`, the
 * slice's duration), its launching call's correlation id. [] for any other
 * row or an event past its notes.
 */
export function graphLaunchLines(track: GraphTrack | null | undefined, event: number, spanNs: number, w: GraphWords): string[] {
  const n = track?.graphNotes;
  if (!track || !isGraphRow(track) || !n || event < 0 || event >= n.kernels.length) return [];
  const kernels = n.kernels[event], memcpys = n.memcpys[event], memsets = n.memsets[event];
  return [
    w.graphLaunchOf(graphRowLabel(track, w), formatInt(event + 1), formatInt(track.events)),
    w.graphLaunchNodes(formatInt(kernels + memcpys + memsets), formatInt(kernels), formatInt(memcpys), formatInt(memsets)),
    w.graphLaunchBusy(formatDurationNs(Number(n.busy[event])), formatDurationNs(spanNs)),
    w.graphLaunchCall(String(n.correlationId[event])),
  ];
}

/**
 * The rows in the order they are drawn, graph rows placed: each stream's
 * graph rows (by id: the engine makes them in exec order) right after the
 * stream and the rows shown under it (its kernels by base name or HGTX
 * range), before the next row. `ordered`: displayOrder's answer for the
 * other rows; `graphRows`: every graph row.
 */
export function placeGraphRows<T extends Pick<TimelineTrackInfo, 'id' | 'graphOf' | 'parent'>>(ordered: T[], graphRows: T[]): T[] {
  if (graphRows.length === 0) return ordered;
  const under = new Map<number, T[]>();
  for (const g of [...graphRows].sort((a, b) => a.id - b.id)) under.set(g.graphOf!, [...(under.get(g.graphOf!) ?? []), g]);
  const out: T[] = [];
  for (let i = 0; i < ordered.length; i++) {
    const t = ordered[i];
    out.push(t);
    const mine = under.get(t.id);
    if (!mine) continue;
    // The stream's own rows shown under it (its kernel rows) come first.
    while (i + 1 < ordered.length && ordered[i + 1].parent === t.id) out.push(ordered[++i]);
    out.push(...mine);
  }
  return out;
}
