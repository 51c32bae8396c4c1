// A nested table (the operator breakdowns) as an expandable tree beside the
// flat table: one node per group of each level, its cells as the table shows
// them. Clicking a node selects its rows in the table (and so sums them).
// The cells come first, in columns under one header row, and the name last:
// the numbers stay aligned whatever a name's length, and a long name is
// shown whole (the tree scrolls sideways) instead of cut off.
import { useMemo, useState } from 'react';
import { useLang } from '../i18n/lang';
import type { DecodedResult } from '../lib/result';
import { OWN_KEYS } from '../lib/shortcuts';
import { buildTree, cellHeaders, type TreeNode } from '../lib/tree';

interface Props {
  result: DecodedResult;
  levels: string[];
  /** The table's row order (sorted, filtered): the tree follows it. */
  order: Uint32Array;
  onSelectRows: (rows: number[]) => void;
}

/** The indent of a level's name, in px. */
const INDENT = 14;

export function BreakdownTree({ result, levels, order, onSelectRows }: Props) {
  const { t } = useLang();
  const roots = useMemo(() => buildTree(result, levels, order), [result, levels, order]);
  const headers = useMemo(() => cellHeaders(result, levels), [result, levels]);
  // Open nodes by their path of indices ("0/2").
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  if (!roots || !headers) return <div className="pie-empty muted">{t.treeNoLevel}</div>;
  const toggle = (path: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });
  const expandAll = () => {
    const all = new Set<string>();
    const walk = (nodes: TreeNode[], at: string) =>
      nodes.forEach((n, i) => {
        const path = at ? `${at}/${i}` : String(i);
        if (n.children.length > 0) all.add(path);
        walk(n.children, path);
      });
    walk(roots, '');
    setOpen(all);
  };
  const render = (nodes: TreeNode[], at: string): React.ReactNode[] =>
    nodes.map((n, i) => {
      const path = at ? `${at}/${i}` : String(i);
      const isOpen = open.has(path);
      return (
        <li key={path} role="treeitem" aria-expanded={n.children.length > 0 ? isOpen : undefined} aria-level={n.level + 1}>
          <div className="tree-node" data-testid="tree-node" data-level={n.level}>
            {n.cells.map(([col, text]) => (
              <span className="tree-cell" key={col} title={result.columns[col].header}>
                {text}
                {result.columns[col].unit === '%' ? ' %' : ''}
              </span>
            ))}
            <span className="tree-name" style={{ paddingLeft: n.level * INDENT }}>
              {n.children.length > 0 ? (
                <button className="link-button tree-toggle" onClick={() => toggle(path)} aria-label={isOpen ? t.treeCollapse : t.treeExpand}>
                  {isOpen ? '▾' : '▸'}
                </button>
              ) : (
                <span className="tree-toggle" aria-hidden />
              )}
              <button className="link-button tree-label" onClick={() => onSelectRows(n.rows)} title={`${n.label}\n${t.treeSelectRows(n.rows.length)}`}>
                {n.tags.map((tag) => (
                  <span className="chip tree-tag" key={tag}>
                    {tag}
                  </span>
                ))}
                <span className="tree-label-text">{n.label}</span>
              </button>
            </span>
          </div>
          {isOpen && n.children.length > 0 && <ul role="group">{render(n.children, path)}</ul>}
        </li>
      );
    });
  return (
    <div className="breakdown-tree" data-testid="breakdown-tree">
      <div className="tree-controls">
        <span className="spacer" />
        <button className="link-button small" onClick={expandAll} data-testid="tree-expand-all">
          {t.treeExpandAll}
        </button>
        <button className="link-button small" onClick={() => setOpen(new Set())}>
          {t.treeCollapseAll}
        </button>
      </div>
      <div className="tree-scroller">
        <div className="tree-node tree-head" role="row" data-testid="tree-head">
          {headers.map((h) => (
            <span className="tree-cell" role="columnheader" key={h}>
              {h}
            </span>
          ))}
          <span className="tree-name" role="columnheader">
            {levels.join(' › ')}
          </span>
        </div>
        <ul role="tree" aria-label={t.treeLabel} {...OWN_KEYS}>
          {render(roots, '')}
        </ul>
      </div>
    </div>
  );
}
