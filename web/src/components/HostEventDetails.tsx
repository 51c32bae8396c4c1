// The details panel's lines for an event of a host row (lib/host_rows.ts):
// a start/end range's threads or that it never ended, a library range's
// library, a failed allocation's call, return value and thread, with a
// button to the call itself on its thread's HGGC API row.
import type { TimelineTrackInfo } from '../engine/timeline_types';
import { useLang } from '../i18n/lang';
import { hostEventLines, isRepeatedCall } from '../lib/host_rows';

export function HostEventDetails(props: {
  track: TimelineTrackInfo | undefined;
  event: number;
  name: string;
  onGoToCall: () => void;
}) {
  const { t } = useLang();
  const lines = hostEventLines(props.track, props.event, props.name, t);
  if (lines.length === 0) return null;
  return (
    <div className="timeline-host" data-testid="tl-host-details" data-host-row={props.track?.hostRow}>
      {lines.map((line) => (
        <span key={line} className="muted">
          {line}
        </span>
      ))}
      {isRepeatedCall(props.track) && (
        <button className="button small" onClick={props.onGoToCall} data-testid="tl-go-to-call" title={t.goToCallTitle}>
          {t.goToCall}
        </button>
      )}
    </div>
  );
}
