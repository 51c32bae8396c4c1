// Foreign profiles in the viewer: Nsight Systems SQLite exports and
// PyTorch/Kineto traces, imported by the engine in the browser, several rank
// traces opened as one report. Real third-party data from ../shared/data/real
// (MANIFEST.md there); without that folder these tests are skipped, saying so.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  columnTexts,
  dropFile,
  dropFiles,
  exportedCsv,
  guardNetwork,
  parseCsv,
  parseShown,
  REAL_DATA,
  selectRule,
  tableRows,
  waitIdle,
} from './helpers';

const NSYS_EXPORT = path.join(REAL_DATA, 'nsys-sqlite/fuser/report1.sqlite');
const ALEXNET_TRACE = path.join(
  REAL_DATA,
  'kineto/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz',
);
const DLRM_DIR = path.join(REAL_DATA, 'kineto/param/dlrm_kineto');

/** The DLRM rank traces present, sorted by name (worker0... first). */
function dlrmRanks(): string[] {
  if (!existsSync(DLRM_DIR)) return [];
  return readdirSync(DLRM_DIR)
    .filter((f) => f.endsWith('.json.gz'))
    .sort()
    .map((f) => path.join(DLRM_DIR, f));
}

/** Skips the running test, naming the file, when a data file is not there. */
function needFile(file: string): void {
  test.skip(!existsSync(file), `real data file missing: ${file}`);
}

if (!existsSync(REAL_DATA)) {
  // The list reporter does not print skip reasons: say it once here.
  console.warn(`foreign.spec.ts: skipping the real-data tests, ${REAL_DATA} is missing`);
}

let foreign: string[] = [];

test.describe('foreign profiles (real data)', () => {
  test.skip(
    !existsSync(REAL_DATA),
    `the real profiling data folder ${REAL_DATA} is missing (../shared/data/real relative to the repository root)`,
  );

  test.beforeEach(async ({ page }) => {
    foreign = guardNetwork(page);
    page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
    await page.goto('./');
    await waitIdle(page);
  });

  test.afterEach(() => {
    expect(foreign, 'requests that left localhost').toEqual([]);
  });

  test('an Nsight Systems SQLite export from the file picker: the top kernel matches plain SQL on the export', async ({
    page,
  }) => {
    needFile(NSYS_EXPORT);
    let sqlite = '';
    try {
      sqlite = execFileSync('sh', ['-c', 'command -v sqlite3']).toString().trim();
    } catch {
      test.skip(true, 'sqlite3 is not installed (needed for the reference query)');
    }
    // The reference: plain SQL on the original export, not on anything the engine wrote.
    const query =
      'SELECT s.value AS name, sum(end-start) AS total FROM CUPTI_ACTIVITY_KIND_KERNEL k ' +
      'JOIN StringIds s ON s.id=k.demangledName GROUP BY 1 ORDER BY 2 DESC LIMIT 1';
    const [top] = JSON.parse(execFileSync(sqlite, ['-readonly', '-json', NSYS_EXPORT, query]).toString()) as {
      name: string;
      total: number;
    }[];
    expect(top.total).toBeGreaterThan(0);

    await page.getByTestId('file-input').first().setInputFiles(NSYS_EXPORT);
    await expect(page.getByTestId('summary-file')).toHaveText('report1.sqlite');
    await expect(page.getByTestId('summary-generator')).toHaveText(/^asys import \(Nsight Systems SQLite, 2025\.1\.1\.110\)$/);
    await waitIdle(page);

    expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
    expect(await tableRows(page).count()).toBeGreaterThan(0);
    // The rule lists the largest total first.
    const totals = (await columnTexts(page, 'Total Time (ns)')).map(parseShown);
    expect(totals[0]).toBe(top.total);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    expect((await columnTexts(page, 'Name'))[0]).toBe(top.name);
  });

  test("an Nsight Systems export's summary: the session's start, the target system, its environment and devices, as the export has them", async ({
    page,
  }) => {
    needFile(NSYS_EXPORT);
    // The reference: the export itself, read with sqlite3.
    const q = (sql: string) => execFileSync('sqlite3', ['-readonly', NSYS_EXPORT, sql]).toString().trim();
    const utc = BigInt(q('SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME'));
    const env = (name: string) => q(`SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = '${name}'`);
    const started =
      new Date(Number(utc / 1_000_000n)).toISOString().slice(0, 23).replace('T', ' ') +
      String(utc % 1_000_000n).padStart(6, '0') +
      ' UTC';
    await page.getByTestId('file-input').first().setInputFiles(NSYS_EXPORT);
    await expect(page.getByTestId('summary-file')).toHaveText('report1.sqlite');
    await expect(page.getByTestId('summary-started')).toHaveText(started);
    await expect(page.getByTestId('summary-system-OsDescription')).toHaveText(env('OsDescription'));
    await expect(page.getByTestId('summary-system-CpuDescription')).toHaveText(env('CpuDescription'));
    await expect(page.getByTestId('summary-system-NvDriverVersion')).toHaveText(env('NvDriverVersion'));
    const variables = env('DeviceEnvironment').split(';').filter((e) => e.trim() !== '');
    await expect(page.getByTestId('summary-environment').locator('summary')).toHaveText(`${variables.length} variables`);
    // The imported path is the browser engine's own: only the file's name shows.
    await expect(page.getByTestId('summary-meta-importedFrom')).toHaveText('report1.sqlite');
    const attributes = page.getByTestId('summary-device-attributes');
    await attributes.locator('summary').click();
    const cus = q('SELECT smCount FROM TARGET_INFO_GPU ORDER BY id').split('\n');
    await expect(attributes.locator('td[data-column=cuCount]')).toHaveText(cus);
  });

  test('an Nsight Systems export: API names read without their CUPTI version tag, the CSV keeps the export\'s bytes', async ({
    page,
  }) => {
    needFile(NSYS_EXPORT);
    await page.getByTestId('file-input').first().setInputFiles(NSYS_EXPORT);
    await expect(page.getByTestId('summary-file')).toHaveText('report1.sqlite');
    await waitIdle(page);
    expect(await selectRule(page, 'hggc_api_sum')).toBe('ready');
    const shown = await columnTexts(page, 'Name');
    expect(shown.length).toBeGreaterThan(0);
    // The export's StringIds hold cudaLaunchKernel_v7000 and cudaGetDeviceProperties_v2_v12000.
    expect(shown).toContain('cudaLaunchKernel');
    expect(shown.filter((n) => /_v\d{4,5}$/.test(n))).toEqual([]);
    const { lines } = await exportedCsv(page);
    const csv = lines.join('\n');
    expect(csv).toContain('"cudaLaunchKernel_v7000"');
  });

  test('a dropped .json.gz Kineto trace: all 79 kernels in the kernel summary', async ({ page }) => {
    needFile(ALEXNET_TRACE);
    const name = path.basename(ALEXNET_TRACE);
    await dropFile(page, name, readFileSync(ALEXNET_TRACE), 'application/gzip');
    await expect(page.getByTestId('summary-file')).toHaveText(name);
    await expect(page.getByTestId('summary-generator')).toContainText('PyTorch/Kineto trace');
    await waitIdle(page);

    expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
    expect(await tableRows(page).count()).toBeGreaterThan(0);
    // Every row, not only the visible ones: the Export CSV file.
    const { name: csvName, lines } = await exportedCsv(page);
    expect(csvName).toBe('benchmark_result_2869224_1695835535_trace_hggc_ppu_kern_sum.csv');
    const [header, ...rows] = parseCsv(lines.join('\n') + '\n');
    const instances = header.indexOf('Instances');
    expect(instances, JSON.stringify(header)).toBeGreaterThanOrEqual(0);
    expect(rows.length).toBeGreaterThan(0);
    // MANIFEST.md: "GPU kernels 79".
    expect(rows.reduce((sum, r) => sum + Number(r[instances]), 0)).toBe(79);
  });

  test('all DLRM rank traces picked together open as one report of one process and device per rank', async ({
    page,
  }, info) => {
    const ranks = dlrmRanks();
    test.skip(ranks.length < 2, `fewer than 2 DLRM rank traces in ${DLRM_DIR}`);
    if (ranks.length !== 8) {
      // MANIFEST.md: some ranks of the set may be held back; the test then covers the ranks present.
      info.annotations.push({ type: 'note', description: `${ranks.length} of the 8 DLRM rank traces present` });
    }
    await page.getByTestId('file-input').first().setInputFiles(ranks);
    await expect(page.getByTestId('summary-file')).toHaveText(
      `${path.basename(ranks[0])} (and ${ranks.length - 1} more)`,
    );
    await expect(page.getByTestId('summary-generator')).toContainText('PyTorch/Kineto trace');
    await expect(page.getByTestId('summary-size')).toHaveAttribute('data-files', String(ranks.length));
    await waitIdle(page);
    // One process per rank trace; every trace lists the job's 8 V100s (deviceProperties).
    await expect(page.getByTestId('summary-processes')).toHaveAttribute('data-count', String(ranks.length));
    await expect(page.getByTestId('summary-devices')).toHaveAttribute('data-count', '8');
    await expect(page.getByTestId('summary-devices')).toContainText('8 × Tesla V100-SXM2-32GB');

    expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
    expect((await columnTexts(page, 'Name')).some((n) => n.startsWith('ncclKernel_'))).toBe(true);
  });

  test('a truncated gzip trace gives one clear error line and the open report stays usable', async ({ page }) => {
    const ranks = dlrmRanks();
    test.skip(ranks.length < 2, `fewer than 2 DLRM rank traces in ${DLRM_DIR}`);
    // Two rank traces dropped at once: the open report.
    await dropFiles(
      page,
      ranks.slice(0, 2).map((f) => ({ name: path.basename(f), bytes: readFileSync(f), type: 'application/gzip' })),
    );
    const opened = `${path.basename(ranks[0])} (and 1 more)`;
    await expect(page.getByTestId('summary-file')).toHaveText(opened);
    await expect(page.getByTestId('summary-processes')).toHaveAttribute('data-count', '2');
    await waitIdle(page);
    expect(await selectRule(page, 'hggc_api_sum')).toBe('ready');

    // The first half of a gzip trace: the stream ends early.
    const whole = readFileSync(ranks[0]);
    await dropFile(page, 'half.json.gz', whole.subarray(0, whole.length >> 1), 'application/gzip');
    await expect(page.getByTestId('error-text')).toHaveCount(1);
    const error = page.getByTestId('error-text');
    await expect(error).toHaveText(/^half\.json\.gz: truncated gzip file/);
    expect(await error.innerText()).not.toContain('\n');
    await waitIdle(page);

    // The report opened before is still the one shown, and its rules still run.
    await expect(page.getByTestId('summary-file')).toHaveText(opened);
    expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
    expect(await tableRows(page).count()).toBeGreaterThan(0);
    await expect(page.getByTestId('error-text')).toHaveCount(1);
  });
});
