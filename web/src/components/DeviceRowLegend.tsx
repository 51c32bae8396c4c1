// The device row's colours (lib/device_row.ts): a swatch per memcpy
// direction, and how pageable and pinned host memory are told apart.
import { useLang } from '../i18n/lang';
import { MEMCPY_COLORS } from '../lib/timeline';
import { SLICE_COLORS } from '../lib/timeline_paint';
import { PAGEABLE_VEIL } from '../lib/device_row';

function Swatch({ color, pageable = false }: { color: string; pageable?: boolean }) {
  return (
    <span
      className="device-legend-swatch"
      style={{
        display: 'inline-block',
        width: 14,
        height: 10,
        marginRight: 3,
        verticalAlign: 'middle',
        background: pageable ? `linear-gradient(${color} 50%, ${PAGEABLE_VEIL} 50%), ${color}` : color,
        backgroundBlendMode: 'normal',
      }}
    />
  );
}

export function DeviceRowLegend() {
  const { t } = useLang();
  const c = MEMCPY_COLORS.HtoD;
  return (
    <span className="muted small device-legend" data-testid="tl-device-legend" title={t.deviceRowTitle}>
      {t.deviceLegend}{' '}
      <span style={{ marginRight: 6 }}>
        <Swatch color={SLICE_COLORS.kernel} />
        {t.deviceRowKernels}
      </span>
      {Object.entries(MEMCPY_COLORS).map(([dir, color]) => (
        <span key={dir} style={{ marginRight: 6 }} data-direction={dir}>
          <Swatch color={color} />
          {t.memcpyDirections[dir] ?? dir}
        </span>
      ))}
      <span style={{ marginRight: 6 }}>
        <Swatch color={c} />
        {t.pinnedLegend}
      </span>
      <span>
        <Swatch color={c} pageable />
        {t.pageableLegend}
      </span>
    </span>
  );
}
