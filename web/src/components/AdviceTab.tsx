// The stats view's advice tab: the expert rules' findings as sentences, each
// with "Open rows" (the rule's table) and, when it has a time span, "Show on
// timeline". The findings come from lib/advice.ts through state/useAdvice.ts.
import type { Finding } from '../lib/advice';
import { formatBytes, formatDecimal1, formatDurationNs, formatInt } from '../lib/format';
import type { AdviceState } from '../state/useAdvice';
import { useLang } from '../i18n/lang';

const DURATIONS = new Set(['total', 'longest', 'duration']);
const PERCENTS = new Set(['avg', 'p90', 'share', 'active', 'compute', 'inUse']);

/** A finding's numbers as its sentence shows them: times in their unit, shares in %, memory in bytes. */
function formatted(f: Finding): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(f.params)) {
    if (typeof v === 'string') out[k] = v || '-';
    else if (f.kind === 'unreleased_memory' && (k === 'bytes' || k === 'total')) out[k] = formatBytes(v);
    else if (DURATIONS.has(k)) out[k] = formatDurationNs(v);
    else if (PERCENTS.has(k)) out[k] = Number.isFinite(v) ? `${formatDecimal1(v)}%` : '-';
    else out[k] = formatInt(v);
  }
  return out;
}

export function AdviceTab({
  advice,
  onOpenRows,
  onShowOnTimeline,
}: {
  advice: AdviceState;
  onOpenRows: (f: Finding) => void;
  onShowOnTimeline: (f: Finding) => void;
}) {
  const { t } = useLang();
  const a = t.advice;
  return (
    <section className="advice" data-testid="advice" data-status={advice.running ? 'running' : 'ready'}>
      <h2>{a.title}</h2>
      <p className="muted">{a.intro}</p>
      {advice.running ? (
        <div className="placeholder muted">{a.running}</div>
      ) : advice.findings.length === 0 ? (
        <p data-testid="advice-none">{a.none}</p>
      ) : (
        <ul className="advice-findings">
          {advice.findings.map((f, i) => (
            <li key={`${f.kind}-${f.row}-${i}`} data-testid="advice-finding" data-kind={f.kind} data-rule={f.rule}>
              <p>{a[f.kind](formatted(f))}</p>
              <button type="button" data-testid="advice-open-rows" onClick={() => onOpenRows(f)}>
                {a.openRows}
              </button>
              {f.span && (
                <button type="button" data-testid="advice-show-on-timeline" onClick={() => onShowOnTimeline(f)}>
                  {a.showOnTimeline}
                </button>
              )}
              <code className="muted"> {f.rule} #{f.row + 1}</code>
            </li>
          ))}
        </ul>
      )}
      {!advice.running && advice.skipped.length > 0 && (
        <p className="muted" data-testid="advice-skipped">
          {a.skipped}{' '}
          {advice.skipped.map((s) => `${s.rule} (${a[s.why]}${s.message ? `: ${s.message}` : ''})`).join('; ')}
        </p>
      )}
    </section>
  );
}
