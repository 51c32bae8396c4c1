// What a permalink still waits for (its files) and what of it could not be
// restored; gone once the link is restored or forgotten.
import { useLang } from '../i18n/lang';
import type { PermalinkStatus } from '../state/permalink';

export function LinkNotice({ status }: { status: PermalinkStatus }) {
  const { t } = useLang();
  const { waitingFor, problems, forget } = status;
  if (waitingFor.length === 0 && problems.length === 0) return null;
  return (
    <div className="link-notice" role="status" data-testid="link-notice">
      {waitingFor.length > 0 && <p data-testid="link-waiting">{t.linkWaiting(waitingFor)}</p>}
      {problems.length > 0 && (
        <div data-testid="link-problems">
          {t.linkProblems}
          <ul>
            {problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <button className="link-forget" onClick={forget} data-testid="link-forget">
        {t.linkForget}
      </button>
    </div>
  );
}
