// Types of csv.mjs for the end-to-end tests (TypeScript).

/** Splits CSV text into rows of fields (RFC 4180 quoting, as the CLI writes it). */
export function parseCsv(text: string): string[][];
