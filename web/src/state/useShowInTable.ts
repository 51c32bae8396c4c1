// A timeline slice's "Show in table": the rule that lists its event
// (lib/event_links.ts ruleOfSliceKind), opened with the event's row
// selected; the engine gives the event's report table and row.
import type { TimelineWindowSlices } from '../engine/timeline_types';
import { ruleOfSliceKind } from '../lib/event_links';
import type { PickedSlice } from '../lib/timeline';
import { useLang } from '../i18n/lang';
import { useEngine } from './engine';
import { message, useErrors } from './errors';
import { useView } from './view';

export interface ShowInTableItem {
  label: string;
  disabled: boolean;
  onSelect: () => void;
}

/** The menu item for the slice right-clicked (`at`, a slice of `slices`); disabled for a slice of no rule's table. */
export function useShowInTable(reportId: number, slices: TimelineWindowSlices | null): (at: PickedSlice | null) => ShowInTableItem {
  const { client } = useEngine();
  const { pushError } = useErrors();
  const { showInTable } = useView();
  const { t } = useLang();
  return (at) => {
    const track = at && slices?.tracks.find((s) => s.id === at.track);
    const rule = track ? ruleOfSliceKind(track.kind[at!.index]) : null;
    if (!at || !track || !rule) return { label: t.showInTable, disabled: true, onSelect: () => {} };
    const event = track.event[at.index];
    return {
      label: t.showInTable,
      disabled: false,
      onSelect: () => {
        client
          .timelineEventRow(reportId, at.track, event)
          .then((row) => row && showInTable({ report: reportId, rule, event: row }))
          .catch((e) => pushError(message(e)));
      },
    };
  };
}
