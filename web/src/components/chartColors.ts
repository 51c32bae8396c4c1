// The charts' own colours (text, axis lines, slice borders) from the page's
// CSS variables, so that a chart drawn after a theme switch matches it.
export interface ChartColors {
  text: string;
  muted: string;
  line: string;
  panel: string;
}

export function chartColors(el: Element): ChartColors {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return { text: v('--text', '#1f2430'), muted: v('--muted', '#6b7385'), line: v('--line', '#e1e4e9'), panel: v('--panel', '#ffffff') };
}
