// Types of xlsx_table.mjs for the end-to-end tests (TypeScript).
import type { Worksheet } from 'exceljs';

export function readSheets(bytes: Uint8Array): Promise<Worksheet[]>;
export function firstDifference(sheet: Worksheet, csvText: string, jsonText: string): string | null;
