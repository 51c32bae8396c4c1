// Reads an XLSX workbook back with exceljs (a reader independent of the
// writer) and compares a sheet cell by cell with the CLI's CSV of the same
// rule, typed by the CLI's JSON: a JSON number (within 2^53) must be an XLSX
// number equal to the CSV's digits, anything else XLSX text equal to the CSV
// field ("-" cells, names, formula-like text, integers past 2^53).
// Shared by tests/wasm/xlsx.test.mjs and tests/e2e/tables.spec.ts.
import ExcelJS from 'exceljs';
import { parseCsv } from '../csv.mjs';

/** The CLI's CSV rows without the empty field after each line's last comma. */
function csvRows(text) {
  return parseCsv(text).map((r) => (r.at(-1) === '' ? r.slice(0, -1) : r));
}

export async function readSheets(bytes) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes);
  return book.worksheets;
}

/** The first cell where `sheet` differs from the CSV (typed by the JSON), or null when none does. */
export function firstDifference(sheet, csvText, jsonText) {
  const csv = csvRows(csvText);
  const json = JSON.parse(jsonText);
  if (sheet.rowCount !== csv.length) return `${sheet.rowCount} rows, the CSV has ${csv.length}`;
  for (let r = 0; r < csv.length; r++) {
    const row = sheet.getRow(r + 1);
    if (row.cellCount !== csv[r].length) return `row ${r + 1}: ${row.cellCount} cells, the CSV has ${csv[r].length}`;
    for (let c = 0; c < csv[r].length; c++) {
      const value = row.getCell(c + 1).value;
      const typed = r === 0 ? csv[0][c] : json[r - 1][csv[0][c]];
      const number = typeof typed === 'number' && Number.isSafeInteger(Math.trunc(typed));
      const same = number ? typeof value === 'number' && value === Number(csv[r][c]) : value === csv[r][c];
      if (!same) {
        return `row ${r + 1}, column ${c + 1} (${csv[0][c]}): ${JSON.stringify(value)}, the CSV has ${JSON.stringify(csv[r][c])}${number ? ' (a number)' : ''}`;
      }
    }
  }
  return null;
}
