// The compare view's hotspot bar chart (Apache ECharts): the rows of the
// compare table in its order (the larger share of the two reports first),
// one bar per report in the aliases' colours, as many rows as the chart's
// height holds. Clicking a row (its bars or the band around them) selects
// its table row.
import { useEffect, useRef, useState } from 'react';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { Hotspot } from '../lib/compare';
import { useTheme } from '../state/theme';
import { chartColors } from './chartColors';

echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export const BASE_COLOR = '#4e79a7';
export const TARGET_COLOR = '#f28e2b';
/** Pixels a chart row takes (two bars and a gap). */
export const HOTSPOT_ROW_HEIGHT = 26;

interface Props {
  title: string;
  /** The aliases of base and target. */
  names: [string, string];
  rows: Hotspot[];
  onSelect: (row: number) => void;
  /** How many rows fit, told whenever the chart's height changes. */
  onCapacity: (rows: number) => void;
}

export function HotspotChart({ title, names, rows, onSelect, onCapacity }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const selectRef = useRef(onSelect);
  selectRef.current = onSelect;
  const [height, setHeight] = useState(0);
  const { theme } = useTheme();

  useEffect(() => {
    const node = el.current!;
    const c = echarts.init(node, undefined, { renderer: 'canvas' });
    chart.current = c;
    c.on('finished', () => {
      node.dataset.rendered = 'true';
    });
    const ro = new ResizeObserver(() => {
      c.resize();
      setHeight(node.clientHeight);
    });
    ro.observe(node);
    setHeight(node.clientHeight);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  // Title, legend and axis take about 70 px; the rest holds the rows.
  useEffect(() => onCapacity(Math.max(1, Math.floor((height - 70) / HOTSPOT_ROW_HEIGHT))), [height, onCapacity]);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    el.current!.dataset.rendered = 'false';
    el.current!.dataset.rows = String(rows.length);
    // Rows with a bar on either side (tests: a layout the chart cannot read shows none).
    el.current!.dataset.bars = String(rows.filter((h) => (h.base ?? 0) > 0 || (h.target ?? 0) > 0).length);
    const shown = [...rows].reverse(); // ECharts draws categories bottom-up
    const colors = chartColors(el.current!);
    const axis = { axisLine: { lineStyle: { color: colors.muted } }, splitLine: { lineStyle: { color: colors.line } } };
    c.setOption(
      {
        animation: false,
        textStyle: { color: colors.text },
        title: { show: false },
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, confine: true },
        legend: { top: 0, data: names, textStyle: { color: colors.text } },
        grid: { left: 8, right: 24, top: 28, bottom: 20, containLabel: true },
        xAxis: { type: 'value', name: title, nameLocation: 'middle', nameGap: 22, min: 0, ...axis, axisLabel: { color: colors.muted } },
        yAxis: {
          type: 'category',
          data: shown.map((h) => h.label),
          axisLabel: { width: 260, overflow: 'truncate', color: colors.text },
          ...axis,
        },
        series: [
          { name: names[0], type: 'bar', data: shown.map((h) => h.base ?? 0), itemStyle: { color: BASE_COLOR } },
          { name: names[1], type: 'bar', data: shown.map((h) => h.target ?? 0), itemStyle: { color: TARGET_COLOR } },
        ],
      },
      { notMerge: true },
    );
    // A click anywhere in a row's band selects it (a small share's bar is
    // hard to hit); categories are drawn bottom-up, so map them back.
    const zr = c.getZr();
    zr.off('click');
    zr.on('click', (e) => {
      const at = [e.offsetX, e.offsetY];
      if (!c.containPixel({ gridIndex: 0 }, at)) return;
      const [, index] = c.convertFromPixel({ gridIndex: 0 }, at) as number[];
      const h = shown[Math.round(index)];
      if (h) selectRef.current(h.row);
    });
  }, [rows, names, title, theme]);

  return <div className="hotspot-chart" ref={el} data-testid="hotspot-chart" aria-label={`${title} of ${names.join(' and ')}`} />;
}
