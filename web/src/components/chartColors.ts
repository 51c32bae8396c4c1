// The charts' and the timeline canvas's own colours (text, axis lines, slice borders) from the page's
// CSS variables, so that a chart drawn after a theme switch matches it.
export interface ChartColors {
  text: string;
  /** Secondary and tertiary text (axis ticks, track labels). */
  text2: string;
  text3: string;
  muted: string;
  line: string;
  panel: string;
  /** The timeline's axis band and its lanes. */
  subtle: string;
  rowAlt: string;
}

export function chartColors(el: Element): ChartColors {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--text', '#1f2430'),
    text2: v('--text-2', '#3b4250'),
    text3: v('--text-3', '#5b6372'),
    muted: v('--muted', '#6b7385'),
    line: v('--line', '#e1e4e9'),
    panel: v('--panel', '#ffffff'),
    subtle: v('--subtle-bg', '#f3f5f8'),
    rowAlt: v('--row-alt', '#fafbfc'),
  };
}
