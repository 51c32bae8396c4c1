// A nested table (the operator breakdowns) as an expandable tree beside the
// flat table: one node per group of each level, its cells as the table shows
// them. Clicking a node selects its rows in the table (and so sums them).
import { useMemo, useState } from 'react';
import type { DecodedResult } from '../lib/result';
import { buildTree, type TreeNode } from '../lib/tree';

interface Props {
  result: DecodedResult;
  levels: string[];
  /** The table's row order (sorted, filtered): the tree follows it. */
  order: Uint32Array;
  onSelectRows: (rows: number[]) => void;
}

export function BreakdownTree({ result, levels, order, onSelectRows }: Props) {
  const roots = useMemo(() => buildTree(result, levels, order), [result, levels, order]);
  // Open nodes by their path of indices ("0/2").
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  if (!roots) return <div className="pie-empty muted">No tree: the result lacks a level column.</div>;
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
            {n.children.length > 0 ? (
              <button className="link-button tree-toggle" onClick={() => toggle(path)} aria-label={isOpen ? 'Collapse' : 'Expand'}>
                {isOpen ? '▾' : '▸'}
              </button>
            ) : (
              <span className="tree-toggle" aria-hidden />
            )}
            <button className="link-button tree-label" onClick={() => onSelectRows(n.rows)} title={`${n.label}\nSelect its ${n.rows.length} row(s) in the table`}>
              {n.tags.map((tag) => (
                <span className="chip tree-tag" key={tag}>
                  {tag}
                </span>
              ))}
              <span className="ellipsis">{n.label}</span>
            </button>
            <span className="tree-cells">
              {n.cells.map(([col, text]) => (
                <span key={col} title={result.columns[col].header}>
                  {text}
                  {result.columns[col].unit === '%' ? ' %' : ''}
                </span>
              ))}
            </span>
          </div>
          {isOpen && n.children.length > 0 && <ul role="group">{render(n.children, path)}</ul>}
        </li>
      );
    });
  return (
    <div className="breakdown-tree" data-testid="breakdown-tree">
      <div className="tree-controls">
        <span className="muted small">{levels.join(' › ')}</span>
        <span className="spacer" />
        <button className="link-button small" onClick={expandAll} data-testid="tree-expand-all">
          Expand all
        </button>
        <button className="link-button small" onClick={() => setOpen(new Set())}>
          Collapse all
        </button>
      </div>
      <ul role="tree" aria-label="Breakdown">
        {render(roots, '')}
      </ul>
    </div>
  );
}
