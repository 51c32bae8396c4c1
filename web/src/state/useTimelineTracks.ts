// A report's timeline tracks from the engine, asked once when the timeline
// of that report opens.
import { useEffect, useState } from 'react';
import type { TimelineInfo } from '../engine/timeline_types';
import { useEngine } from './engine';
import { message, useErrors } from './errors';

export function useTimelineTracks(reportId: number): { info: TimelineInfo | null; loading: boolean } {
  const { client } = useEngine();
  const { pushError } = useErrors();
  const [info, setInfo] = useState<TimelineInfo | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let live = true;
    client
      .timelineTracks(reportId)
      .then((t) => live && setInfo(t))
      .catch((e) => pushError(message(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [client, reportId, pushError]);
  return { info, loading };
}
