// A timeline slice's "Show in table": the rule that lists its event
// (lib/event_links.ts ruleOfSliceKind), opened with the event's row
// selected; the engine gives the event's report table and row. The event is
// the selection's (its links' `selected`: kept across windows, unlike a
// slice's index in the window it was picked from).
import type { TimelineEvent } from '../engine/timeline_types';
import { ruleOfSliceKind } from '../lib/event_links';
import { useLang } from '../i18n/lang';
import { useEngine } from './engine';
import { message, useErrors } from './errors';
import { useView } from './view';

export interface ShowInTableItem {
  label: string;
  disabled: boolean;
  onSelect: () => void;
}

/** The menu item for the event right-clicked (null: none, or its links not here yet); disabled for an event of no rule's table. */
export function useShowInTable(reportId: number): (event: TimelineEvent | null) => ShowInTableItem {
  const { client } = useEngine();
  const { pushError } = useErrors();
  const { showInTable } = useView();
  const { t } = useLang();
  return (event) => {
    const rule = event ? ruleOfSliceKind(event.kind) : null;
    if (!event || !rule) return { label: t.showInTable, disabled: true, onSelect: () => {} };
    return {
      label: t.showInTable,
      disabled: false,
      onSelect: () => {
        client
          .timelineEventRow(reportId, event.track, event.event)
          .then((row) => row && showInTable({ report: reportId, rule, event: row }))
          .catch((e) => pushError(message(e)));
      },
    };
  };
}
