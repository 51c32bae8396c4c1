import type { EngineClient } from '../engine/client';

// Saves what the page made (an exported CSV or XLSX, a rule's generated
// file) as a download: the bytes the CLI writes (text as UTF-8).
export function downloadBytes(data: string | Uint8Array | Blob, fileName: string, type: string): void {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  downloadBytes(text, fileName, type);
}

/** A report's file name without its extension: what exported files are named after. */
export function reportStem(fileName: string): string {
  return fileName.replace(/\.(asysrep|sqlite3?|json|json\.gz|gz)$/i, '') || 'report';
}

/** The formats a result exports to, as the CLI's --format names them. */
export type ExportFormat = 'csv' | 'xlsx';

const MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * Renders a result in the engine (the CLI's bytes) and downloads it as `stem.csv` / `stem.xlsx`;
 * a CSV comes in parts joined in a Blob, so a trace of millions of rows is never one string.
 */
export async function exportResult(client: EngineClient, result: number, rule: string, stem: string, format: ExportFormat) {
  const data = format === 'csv' ? await client.exportCsv(result) : await client.renderXlsx(result, rule);
  downloadBytes(data, `${stem}.${format}`, MEDIA_TYPES[format]);
}
