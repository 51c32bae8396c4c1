// The details panel's part for a selected event's links (the engine's
// timelineRelated): an HGGC API call lists the kernels, memcpys and memsets
// it launched, an activity its launching call, each with a button that
// brings it into view and selects it, wherever the window is.
import type { TimelineEvent, TimelineInfo, TimelineRelated } from '../engine/timeline_types';
import { SLICE_KINDS } from '../engine/timeline_types';
import { formatDurationNs, formatInt } from '../lib/format';
import type { Viewport } from '../lib/timeline';
import { TimeText } from './TimeText';

/** Listed in the panel; the canvas outlines every one. */
const LISTED = 50;

const isCall = (kind: number) => SLICE_KINDS[kind] === 'api' || SLICE_KINDS[kind] === 'apiError';
const isActivity = (kind: number) => ['kernel', 'memcpy', 'memset'].includes(SLICE_KINDS[kind] ?? '');

/** The window a jump shows: the event centred, its own duration (at least 1 us) on each side. */
export function jumpWindow(e: TimelineEvent, origin: bigint): Viewport {
  const a = Number(e.start - origin), b = Number(e.end - origin);
  const pad = Math.max(b - a, 1000);
  return { from: a - pad, to: b + pad };
}

function place(e: TimelineEvent, info: TimelineInfo): string {
  const t = info.tracks[e.track];
  return t ? `${t.group} · ${t.label}` : `track ${e.track}`;
}

/** The selected event itself, when no slice of the window stands for it (after a jump or a zoom); its start since the report's zero. */
export function SelectedEvent({ event, info, zero }: { event: TimelineEvent; info: TimelineInfo; zero: bigint }) {
  return (
    <>
      <strong>{event.name || '(unnamed)'}</strong>
      <span>{place(event, info)}</span>
      <span>
        start <TimeText at={event.start} zero={zero} signed />, duration{' '}
        {formatDurationNs(Number(event.end - event.start))}
      </span>
    </>
  );
}

export function RelatedEvents(props: {
  links: TimelineRelated;
  info: TimelineInfo;
  /** The report's time zero: the events' starts are shown since it. */
  zero: bigint;
  onJump: (e: TimelineEvent) => void;
}) {
  const { links, info, zero, onJump } = props;
  const kind = links.selected.kind;
  if (!isCall(kind) && !isActivity(kind)) return null;
  const n = links.related.length;
  const heading = isCall(kind)
    ? n === 0
      ? 'Launched no PPU activity (no kernel, memcpy or memset has its correlation id in its process).'
      : `Launched ${formatInt(n)} PPU ${n === 1 ? 'activity' : 'activities'}:`
    : n === 0
      ? 'No HGGC API call of its process has its correlation id.'
      : 'Launched by:';
  return (
    <div className="timeline-related" data-testid="tl-related" data-count={n}>
      <span className="muted">{heading}</span>
      {n > 0 && (
        <ul>
          {links.related.slice(0, LISTED).map((e) => (
            <li key={`${e.track}:${e.event}`} data-testid="tl-related-item" data-track={e.track} data-event={e.event} data-start={String(e.start)}>
              <button className="button small" onClick={() => onJump(e)} data-testid="tl-related-go" title="Show it and select it">
                Go to
              </button>{' '}
              <span className="tl-related-name">{e.name || '(unnamed)'}</span>{' '}
              <span className="muted">
                {SLICE_KINDS[e.kind]} · {place(e, info)} · <TimeText at={e.start} zero={zero} signed />, {formatDurationNs(Number(e.end - e.start))}
              </span>
            </li>
          ))}
        </ul>
      )}
      {n > LISTED && <span className="muted">… and {formatInt(n - LISTED)} more, outlined on the timeline</span>}
    </div>
  );
}
