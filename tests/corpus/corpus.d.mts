// Types of corpus.mjs for the end-to-end tests (TypeScript).

export interface CorpusEntry {
  name: string;
  ext?: string;
  make: (path: string) => void;
  rule?: string;
  config?: string[];
  at: 'open' | 'rule' | 'ok';
  error?: RegExp;
  viewerError?: RegExp;
  warning?: RegExp;
  stdout?: RegExp;
  exit?: number;
}

export const CORPUS: CorpusEntry[];
export function fileName(entry: CorpusEntry): string;
export function ruleOf(entry: CorpusEntry): string;
export function sqlReport(file: string, fixture: string, ...sql: string[]): void;
