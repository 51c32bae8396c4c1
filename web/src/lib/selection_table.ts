// The drag selection's grouped events (core/timeline/selection_stats.h) as a
// table the result view shows like a rule's: a declaration made from the
// result's own columns, so the same table, search, sort, sums and exports
// serve it. It is no rule: it has no options, pie or tree, and its name is
// only what its exports are called (<report>_timeline_selection.csv, the
// workbook's sheet).
import type { ColumnSpec, RuleDecl } from '../engine/types';
import type { DecodedResult } from './result';

/** The exports' name: `<report>_timeline_selection.csv`, and the XLSX sheet's. */
export const SELECTION_TABLE_NAME = 'timeline_selection';

/** The columns the sums row adds up (selected rows, or every row shown). */
const SUMMED = ['Total Time', 'Count', 'In Selection'];

/** A declaration for the grouped events `result`: Name its key (what "Mark in timeline" marks), Kind an attribute. */
export function selectionTableDecl(result: Pick<DecodedResult, 'columns'>): RuleDecl {
  const columns: ColumnSpec[] = result.columns.map((c) => ({
    name: c.name,
    unit: c.unit,
    kind: c.kind,
    help: '',
    header: c.header,
    role: c.name === 'Name' ? 'key' : c.kind === 'Text' ? 'attribute' : 'value',
  }));
  return {
    name: SELECTION_TABLE_NAME,
    command: 'stats',
    compare: false,
    compareShare: '',
    title: 'Timeline selection',
    titleZh: '时间线选区',
    topic: '',
    description: '',
    descriptionZh: '',
    options: [],
    globalOptions: [],
    columns,
    needs: [],
    pie: null,
    sumColumns: SUMMED.filter((n) => result.columns.some((c) => c.name === n)),
    summaryRow: '',
    treeLevels: [],
    available: true,
    missing: '',
  };
}
