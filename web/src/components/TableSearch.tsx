// The search box over a result table: the text, the search / filter switch,
// and in search mode the match count with previous / next (Enter, Shift+Enter).
import { formatInt } from '../lib/format';
import type { TableSearch } from '../state/useTableSearch';

export function TableSearchBox({ search }: { search: TableSearch }) {
  const { text, setText, mode, setMode, mask, count, current, step } = search;
  const searching = mask !== null && mode === 'search';
  return (
    <span className="table-search" role="search" data-testid="table-search">
      <input
        className="input table-search-input"
        type="search"
        placeholder={mode === 'search' ? 'Search the table' : 'Filter the table'}
        aria-label={mode === 'search' ? 'Search the table' : 'Filter the table'}
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
        aria-label="Search mode"
        title="Search: jump between the matching rows. Filter: show the matching rows only."
        data-testid="table-search-mode"
      >
        <option value="search">Search</option>
        <option value="filter">Filter</option>
      </select>
      {searching && (
        <>
          <span className="table-search-count muted" data-testid="table-search-count" aria-live="polite">
            {count === 0 ? 'No matches' : `${formatInt(current + 1)} of ${formatInt(count)}`}
          </span>
          <button className="button small" onClick={() => step(-1)} disabled={count === 0} aria-label="Previous match" data-testid="search-prev">
            ▲
          </button>
          <button className="button small" onClick={() => step(1)} disabled={count === 0} aria-label="Next match" data-testid="search-next">
            ▼
          </button>
        </>
      )}
    </span>
  );
}
