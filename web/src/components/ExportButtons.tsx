// Export CSV and Export XLSX: the result as the CLI writes it with
// --format csv and --format xlsx, made by the engine.
import { useLang } from '../i18n/lang';
import type { ExportFormat } from '../lib/download';

export function ExportButtons({ onExport, exporting }: { onExport: (f: ExportFormat) => void; exporting: ExportFormat | null }) {
  const { t } = useLang();
  return (
    <>
      {(['csv', 'xlsx'] as const).map((f) => (
        <button key={f} className="button" onClick={() => onExport(f)} disabled={exporting !== null} data-testid={`export-${f}`}>
          {exporting === f ? t.exporting : t.exportAs(f.toUpperCase())}
        </button>
      ))}
    </>
  );
}
