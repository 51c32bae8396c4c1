// The statistics time range for every rule (--filter-time / --filter-hgtx):
// from/to offsets from the capture start, or the time span of an HGTX range.
import { useState } from 'react';
import { filterTimeValue } from '../lib/time';
import { timeZeroOf } from '../lib/time_zero';
import { TimeText } from './TimeText';
import { useLang } from '../i18n/lang';
import type { AppliedTimeFilter } from '../state/reports';

interface Props {
  applied: AppliedTimeFilter | null;
  /** The report's capture start (its time zero: typed and shown times count from it). */
  captureStart: bigint | null;
  onApply: (filterTime: string, filterHgtx: string) => Promise<void>;
  busy: boolean;
}

export function TimeFilter({ applied, captureStart, onApply, busy }: Props) {
  const { t } = useLang();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [hgtx, setHgtx] = useState('');
  const [error, setError] = useState('');

  const apply = async (clear = false) => {
    setError('');
    if (clear) {
      setFrom('');
      setTo('');
      setHgtx('');
    }
    const t = clear ? { value: '' } : filterTimeValue(from, to);
    if ('error' in t) {
      setError(t.error);
      return;
    }
    try {
      await onApply(t.value, clear ? '' : hgtx.trim());
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  // The window is exact (BigInt), shown from the same zero as the typed times and the timeline.
  const zero = timeZeroOf(captureStart);
  const rel = (ns: bigint | null, open: string) => (ns === null ? open : <TimeText at={ns} zero={zero} />);
  return (
    <form
      className="time-filter"
      data-testid="time-filter"
      onSubmit={(e) => {
        e.preventDefault();
        void apply();
      }}
    >
      <div className="time-filter-title">
        {t.timeRange}
        {applied?.window ? (
          <span className="time-window" data-testid="time-window">
            {rel(applied.window[0], 'start')} – {rel(applied.window[1], 'end')}
          </span>
        ) : (
          <span className="muted small">{t.wholeCaptureShort}</span>
        )}
      </div>
      <div className="time-filter-row" title={t.timeFromCaptureStart}>
        <input
          className="input"
          placeholder={t.timeFromPlaceholder}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          aria-label="From, after the capture start"
          data-testid="time-from"
        />
        <input
          className="input"
          placeholder={t.timeToPlaceholder}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          aria-label="To, after the capture start"
          data-testid="time-to"
        />
      </div>
      <input
        className="input time-hgtx"
        placeholder={t.timeRangePlaceholder}
        value={hgtx}
        onChange={(e) => setHgtx(e.target.value)}
        aria-label="HGTX range"
        title="The time span of the INDEX-th (from 0) HGTX range named NAME; overrides from/to"
        data-testid="time-hgtx"
        spellCheck={false}
      />
      <div className="time-filter-row">
        <button className="button" type="submit" disabled={busy} data-testid="time-apply">
          {t.apply}
        </button>
        <button className="link-button small" type="button" disabled={busy || !applied} onClick={() => void apply(true)}>
          {t.wholeCapture}
        </button>
      </div>
      {error && (
        <div className="setting-error" role="alert" data-testid="time-error">
          {error}
        </div>
      )}
    </form>
  );
}
