// The search box over a result table: the text, the search / filter switch,
// and in search mode the match count with previous / next (Enter, Shift+Enter).
import { useLang } from '../i18n/lang';
import { formatInt } from '../lib/format';
import type { TableSearch } from '../state/useTableSearch';

export function TableSearchBox({ search }: { search: TableSearch }) {
  const { text, setText, mode, setMode, mask, count, current, step } = search;
  const searching = mask !== null && mode === 'search';
  const { t } = useLang();
  return (
    <span className="table-search" role="search" data-testid="table-search">
      <input
        className="input table-search-input"
        type="search"
        placeholder={mode === 'search' ? t.searchTable : t.filterTable}
        aria-label={mode === 'search' ? t.searchTable : t.filterTable}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            step(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') setText('');
        }}
        data-testid="table-search-input"
      />
      <select
        className="input table-search-mode"
        value={mode}
        onChange={(e) => setMode(e.target.value as TableSearch['mode'])}
        aria-label={t.searchMode}
        title={t.searchModeTitle}
        data-testid="table-search-mode"
      >
        <option value="search">{t.modeSearch}</option>
        <option value="filter">{t.modeFilter}</option>
      </select>
      {search.error && (
        <span className="table-search-count muted" role="alert" data-testid="table-search-error">
          {search.error}
        </span>
      )}
      {searching && (
        <>
          <span className="table-search-count muted" data-testid="table-search-count" aria-live="polite">
            {count === 0 ? t.noMatches : t.nOfM(formatInt(current + 1), formatInt(count))}
          </span>
          <button className="button small" onClick={() => step(-1)} disabled={count === 0} aria-label={t.previousMatch} data-testid="search-prev">
            ▲
          </button>
          <button className="button small" onClick={() => step(1)} disabled={count === 0} aria-label={t.nextMatch} data-testid="search-next">
            ▼
          </button>
        </>
      )}
    </span>
  );
}
