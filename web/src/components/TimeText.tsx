// A time as the viewer shows it: counted from the report's time zero (its
// capture start, lib/time_zero.ts), with the absolute ns on the report's
// clock on hover.
import { formatAtSinceZero, formatSinceZero } from '../lib/time_zero';
import { useLang } from '../i18n/lang';

export function TimeText({ at, zero, signed = false }: { at: bigint; zero: bigint; signed?: boolean }) {
  const { t } = useLang();
  return (
    <span className="time-text" title={t.absoluteTime(String(at))} data-abs={String(at)}>
      {signed ? formatAtSinceZero(at, zero) : formatSinceZero(at, zero)}
    </span>
  );
}
