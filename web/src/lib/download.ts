// Saves text the page made (an exported CSV, a rule's generated file) as a
// download: UTF-8, the bytes the CLI writes.
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A report's file name without its extension: what exported files are named after. */
export function reportStem(fileName: string): string {
  return fileName.replace(/\.(asysrep|sqlite3?|json|json\.gz|gz)$/i, '') || 'report';
}
