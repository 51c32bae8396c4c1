// A table whose rows are paths through nested groups (the operator
// breakdowns: framework -> library -> kernel) as a tree. The rule declares
// the column that starts each level (treeLevels); a level's cells are that
// column and the ones after it up to the next level's, and the columns before
// the first level (OP Type) belong to the first. Rows with the same cells on
// a level under the same parent are one node, in the order rows first show it.
import { cellDisplay, findColumn, type DecodedResult } from './result';

export interface TreeNode {
  /** 0 for the outermost level. */
  level: number;
  /** The level column's text (an operator's name, "Native", "Idle"). */
  label: string;
  /** The first level's leading cells (the OP Type), shown before the label. */
  tags: string[];
  /** The level's other cells as the table shows them: [column index, text]. */
  cells: [number, string][];
  /** The result rows under this node (every leaf's row). */
  rows: number[];
  children: TreeNode[];
}

/** The columns of each level: [first, end). null when a level column is missing. */
export function levelColumns(t: DecodedResult, levels: string[]): [number, number][] | null {
  const starts = levels.map((l) => findColumn(t, l));
  if (starts.length === 0 || starts.some((s) => s < 0) || starts.some((s, i) => i > 0 && s <= starts[i - 1])) return null;
  return starts.map((s, i) => [i === 0 ? 0 : s, i + 1 < starts.length ? starts[i + 1] : t.columns.length]);
}

export function buildTree(t: DecodedResult, levels: string[], order: ArrayLike<number>): TreeNode[] | null {
  const spans = levelColumns(t, levels);
  if (!spans) return null;
  const labelCols = levels.map((l) => findColumn(t, l));
  const roots: TreeNode[] = [];
  // Per parent node: identity of a child's cells -> the child.
  const index = new Map<TreeNode | null, Map<string, TreeNode>>();
  for (let i = 0; i < order.length; i++) {
    const row = order[i];
    let parent: TreeNode | null = null;
    let siblings = roots;
    for (let level = 0; level < spans.length; level++) {
      const [from, end] = spans[level];
      const texts: string[] = [];
      for (let c = from; c < end; c++) texts.push(cellDisplay(t, row, c));
      const id = texts.join('\u001f');
      let byId = index.get(parent);
      if (!byId) index.set(parent, (byId = new Map()));
      let node = byId.get(id);
      if (!node) {
        const labelAt = labelCols[level] - from;
        node = {
          level,
          label: texts[labelAt],
          tags: texts.slice(0, labelAt),
          cells: texts.map((text, k) => [from + k, text] as [number, string]).filter((_, k) => k > labelAt),
          rows: [],
          children: [],
        };
        byId.set(id, node);
        siblings.push(node);
      }
      node.rows.push(row);
      parent = node;
      siblings = node.children;
    }
  }
  return roots;
}

/**
 * The headers of a node's cells, one per cell of the first level, without
 * the level's own word ("Framework Time (%)" under "Framework OP" ->
 * "Time (%)"): every level of a breakdown repeats the same quantities, so one
 * header row names them all. null when a level column is missing.
 */
export function cellHeaders(t: DecodedResult, levels: string[]): string[] | null {
  const spans = levelColumns(t, levels);
  if (!spans) return null;
  const label = findColumn(t, levels[0]);
  const word = levels[0].split(' ')[0] + ' ';
  const out: string[] = [];
  for (let c = label + 1; c < spans[0][1]; c++) {
    const h = t.columns[c].header;
    out.push(h.startsWith(word) ? h.slice(word.length) : h);
  }
  return out;
}
