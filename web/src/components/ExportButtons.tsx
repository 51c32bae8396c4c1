// Export CSV and Export XLSX: the result as the CLI writes it with
// --format csv and --format xlsx, made by the engine.
export type ExportFormat = 'csv' | 'xlsx';

export function ExportButtons({ onExport, exporting }: { onExport: (f: ExportFormat) => void; exporting: ExportFormat | null }) {
  return (
    <>
      {(['csv', 'xlsx'] as const).map((f) => (
        <button key={f} className="button" onClick={() => onExport(f)} disabled={exporting !== null} data-testid={`export-${f}`}>
          {exporting === f ? 'Exporting…' : `Export ${f.toUpperCase()}`}
        </button>
      ))}
    </>
  );
}
