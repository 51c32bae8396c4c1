// The rows a rule's table is asked to select (view.tsx TableFocus: a
// timeline slice's "Show in table", the advice tab's "Open rows"), resolved
// for the result shown: rows by number at once, an event's row by the
// engine (resultRowOfEvent, which reads a paged result in the engine). Each
// request is applied once: coming back to the rule later keeps what the
// user selected since.
import { useEffect, useState } from 'react';
import { useLang } from '../i18n/lang';
import { useEngine } from './engine';
import { message, useErrors } from './errors';
import { useView } from './view';

/** Rows to select and scroll to; `seq` tells a new request from the last. */
export interface FocusRows {
  rows: number[];
  seq: number;
}

// Per report, the request resolved last.
const resolvedSeq = new Map<number, number>();

export function useTableFocus(reportId: number, rule: string | null, resultId: number | undefined, rowCount: number): FocusRows | null {
  const { tableFocus } = useView();
  const { client } = useEngine();
  const { pushError } = useErrors();
  const { t } = useLang();
  const [rows, setRows] = useState<FocusRows | null>(null);
  useEffect(() => {
    const f = tableFocus;
    if (!f || f.report !== reportId || f.rule !== rule || resultId === undefined) return;
    if (resolvedSeq.get(reportId) === f.seq) return;
    resolvedSeq.set(reportId, f.seq);
    if (f.rows) {
      setRows({ rows: f.rows.filter((r) => r >= 0 && r < rowCount), seq: f.seq });
      return;
    }
    if (!f.event) return;
    let live = true;
    client
      .resultRowOfEvent(resultId, f.event.table, f.event.index)
      .then((row) => {
        if (!live) return;
        if (row === null) pushError(t.notInTable(f.rule));
        else setRows({ rows: [row], seq: f.seq });
      })
      .catch((e) => pushError(message(e)));
    return () => {
      live = false;
    };
  }, [tableFocus, reportId, rule, resultId, rowCount, client, pushError, t]);
  return rows;
}
