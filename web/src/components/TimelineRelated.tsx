// The details panel's part for a selected event's links (the engine's
// timelineRelated): an HGGC API call lists the kernels, memcpys and memsets
// it launched, an activity its launching call, each with a button that
// brings it into view and selects it, wherever the window is.
import type { TimelineEvent, TimelineInfo, TimelineRelated } from '../engine/timeline_types';
import { SLICE_KINDS } from '../engine/timeline_types';
import { formatDurationNs, formatInt } from '../lib/format';
import type { Viewport } from '../lib/timeline';
import { useLang } from '../i18n/lang';
import type { Messages } from '../i18n/messages';
import { TimeText } from './TimeText';

/** Listed in the panel; the canvas outlines every one. */
const LISTED = 50;

const isCall = (kind: number) => SLICE_KINDS[kind] === 'api' || SLICE_KINDS[kind] === 'apiError';
// A graph row's launch links to its launching call as an activity does.
const isActivity = (kind: number) => ['kernel', 'memcpy', 'memset', 'graphLaunch'].includes(SLICE_KINDS[kind] ?? '');

/** The window a jump shows: the event centred, its own duration (at least 1 us) on each side. */
export function jumpWindow(e: TimelineEvent, origin: bigint): Viewport {
  const a = Number(e.start - origin), b = Number(e.end - origin);
  const pad = Math.max(b - a, 1000);
  return { from: a - pad, to: b + pad };
}

function place(e: TimelineEvent, info: TimelineInfo, t: Messages): string {
  const track = info.tracks[e.track];
  return track ? `${track.group} · ${track.label}` : t.trackN(e.track);
}

/** The selected event itself, when no slice of the window stands for it (after a jump or a zoom); its start since the report's zero. */
export function SelectedEvent({ event, info, zero }: { event: TimelineEvent; info: TimelineInfo; zero: bigint }) {
  const { t } = useLang();
  return (
    <>
      {/* A graph launch reads as its row (its label in the page's language). */}
      <strong>{(SLICE_KINDS[event.kind] === 'graphLaunch' ? info.tracks[event.track]?.label : event.name) || t.unnamed}</strong>
      <span>{place(event, info, t)}</span>
      <span>
        {t.eventStart} <TimeText at={event.start} zero={zero} signed />, {t.eventDuration}{' '}
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
  const { t } = useLang();
  const kind = links.selected.kind;
  if (!isCall(kind) && !isActivity(kind)) return null;
  const n = links.related.length;
  const heading = isCall(kind)
    ? n === 0
      ? t.launchedNothing
      : t.launchedN(formatInt(n), n === 1)
    : n === 0
      ? t.noLaunchingCall
      : t.launchedBy;
  return (
    <div className="timeline-related" data-testid="tl-related" data-count={n}>
      <span className="muted">{heading}</span>
      {n > 0 && (
        <ul>
          {links.related.slice(0, LISTED).map((e) => (
            <li key={`${e.track}:${e.event}`} data-testid="tl-related-item" data-track={e.track} data-event={e.event} data-start={String(e.start)}>
              <button className="button small" onClick={() => onJump(e)} data-testid="tl-related-go" title={t.goToTitle}>
                {t.goTo}
              </button>{' '}
              <span className="tl-related-name">{e.name || t.unnamed}</span>{' '}
              <span className="muted">
                {SLICE_KINDS[e.kind]} · {place(e, info, t)} · <TimeText at={e.start} zero={zero} signed />, {formatDurationNs(Number(e.end - e.start))}
              </span>
            </li>
          ))}
        </ul>
      )}
      {n > LISTED && <span className="muted">{t.andMoreOutlined(formatInt(n - LISTED))}</span>}
    </div>
  );
}
