// One-line errors (a foreign file, a worker failure) shown above the page;
// the page keeps working underneath.
import type { ErrorItem } from '../state/errors';
import { EngineText } from './EngineText';

export function ErrorBanner({ errors, onDismiss }: { errors: ErrorItem[]; onDismiss: (id: number) => void }) {
  if (errors.length === 0) return null;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner">
      {errors.map((e) => (
        <div className="error-line" key={e.id}>
          <span className="error-icon" aria-hidden>
            !
          </span>
          <span className="error-text" data-testid="error-text">
            <EngineText text={e.text} />
          </span>
          <button className="link-button" onClick={() => onDismiss(e.id)} aria-label="Dismiss">
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
