// The rule's pie chart (Apache ECharts, pie parts only) with an HTML legend,
// largest first: the value column summed per key, top N slices plus "Other".
// Clicking a slice (or its legend entry) filters the table to it; clicking it
// again, or empty space in the chart, resets.
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { PieChart as EPie } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { PieSlice } from '../lib/pie';
import { formatDecimal1, formatInt } from '../lib/format';
import { useTheme } from '../state/theme';
import { chartColors } from './chartColors';

echarts.use([EPie, TooltipComponent, CanvasRenderer]);

export const PALETTE = [
  '#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7',
  '#9c755f', '#8cd17d', '#86bcb6', '#d37295', '#a0cbe8', '#ffbe7d', '#bab0ac',
];
const OTHER_COLOR = '#c8ccd2';

/** One colour per slice, in order; "Other" is grey. */
export function sliceColors(slices: PieSlice[]): string[] {
  let next = 0;
  return slices.map((s) => (s.other ? OTHER_COLOR : PALETTE[next++ % PALETTE.length]));
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface Props {
  slices: PieSlice[];
  total: number;
  valueLabel: string;
  selected: string | null;
  onSliceClick: (slice: PieSlice | null) => void;
}

export function PieChart({ slices, total, valueLabel, selected, onSliceClick }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const clickRef = useRef(onSliceClick);
  clickRef.current = onSliceClick;
  const slicesRef = useRef(slices);
  slicesRef.current = slices;
  const { theme } = useTheme();

  useEffect(() => {
    const node = el.current!;
    const c = echarts.init(node, undefined, { renderer: 'canvas' });
    chart.current = c;
    c.on('click', (p) => {
      const s = slicesRef.current[p.dataIndex ?? -1];
      if (s) clickRef.current(s);
    });
    // An explicit "drawn" signal for tests: set once the animation finished.
    c.on('finished', () => {
      node.dataset.rendered = 'true';
    });
    // A click on empty space resets the filter.
    c.getZr().on('click', (e) => {
      if (!e.target) clickRef.current(null);
    });
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(node);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    el.current!.dataset.rendered = 'false';
    const colors = sliceColors(slices);
    const data = slices.map((s, i) => ({
      name: s.name,
      value: s.value,
      selected: s.name === selected,
      itemStyle: {
        color: colors[i],
        opacity: selected && s.name !== selected ? 0.45 : 1,
      },
    }));
    c.setOption(
      {
        animationDuration: 250,
        animationDurationUpdate: 250,
        tooltip: {
          trigger: 'item',
          confine: true,
          formatter: (p: { name: string; value: number; percent: number; dataIndex: number }) => {
            const s = slicesRef.current[p.dataIndex];
            const more = s && s.other ? `<br/><span style="opacity:.7">${s.keys.length} more keys</span>` : '';
            return `<div style="max-width:320px;white-space:normal;word-break:break-all">${escapeHtml(p.name)}</div>
              <b>${formatInt(p.value)}</b> ${escapeHtml(valueLabel)} · ${formatDecimal1(p.percent)}%${more}`;
          },
        },
        series: [
          {
            id: 'pie',
            type: 'pie',
            radius: ['34%', '72%'],
            center: ['50%', '50%'],
            selectedMode: 'single',
            selectedOffset: 8,
            avoidLabelOverlap: true,
            label: { show: false },
            labelLine: { show: false },
            emphasis: { scale: true, scaleSize: 4 },
            itemStyle: { borderColor: chartColors(el.current!).panel, borderWidth: 1 },
            data,
          },
        ],
      },
    );
  }, [slices, total, selected, valueLabel, theme]);

  const colors = sliceColors(slices);
  return (
    <>
      <div className="pie-canvas" ref={el} data-testid="pie-chart" data-slices={slices.length} />
      <ol className="pie-legend" data-testid="pie-legend" aria-label="Slices, largest first">
        {slices.map((s, i) => (
          <li key={s.name}>
            <button
              className={`legend-item${s.name === selected ? ' selected' : ''}${selected && s.name !== selected ? ' dim' : ''}`}
              onClick={() => onSliceClick(s)}
              title={s.other ? `${s.keys.length} more keys:\n${s.keys.slice(0, 30).join('\n')}` : s.name}
              data-testid="legend-item"
            >
              <span className="swatch" style={{ background: colors[i] }} />
              <span className="legend-name">{s.name}</span>
              <span className="legend-pct">{total > 0 ? formatDecimal1((100 * s.value) / total) : '0.0'}%</span>
            </button>
          </li>
        ))}
      </ol>
    </>
  );
}
