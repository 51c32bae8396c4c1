// A graph launch's details (issue 23, docs/timeline.md "Graph rows").
import type { TimelineEvent, TimelineRelated, TimelineTrackInfo } from '../engine/timeline_types';
import { useLang } from '../i18n/lang';
import { graphLaunchLines } from '../lib/graph_rows';

// A graph launch's lines in the details panel (lib/graph_rows.ts) and its
// "Go to Host API" button: the launching call (hgGraphLaunch), selected.
export function GraphLaunchDetails(props: {
  track: TimelineTrackInfo | undefined;
  event: number;
  spanNs: number;
  links: TimelineRelated | null;
  onJump: (e: TimelineEvent) => void;
}) {
  const { t } = useLang();
  const lines = graphLaunchLines(props.track, props.event, props.spanNs, t);
  if (lines.length === 0) return null;
  const call = props.links && props.links.selected.track === props.track?.id && props.links.selected.event === props.event ? (props.links.related[0] ?? null) : null;
  return (
    <div className="timeline-host" data-testid="tl-graph-details">
      {lines.map((line) => (
        <span key={line} className="muted">
          {line}
        </span>
      ))}
      <button className="button small" disabled={!call} onClick={() => call && props.onJump(call)} data-testid="tl-graph-go-call">
        {t.goToHostApi}
      </button>
    </div>
  );
}
