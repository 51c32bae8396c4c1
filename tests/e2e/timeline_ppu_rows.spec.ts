// The manual's PPU-side timeline rows (issue 23, asight-manual-digest.md
// "Timeline view"): each PPU's device row, its kernels over its memory
// operations (memcpys coloured by direction and by pinned / pageable host
// memory), on the demo, a real Kineto trace and a real Nsight Systems
// export. Every share is checked against unions of intervals computed here
// from the report's own tables with the sqlite3 shell (for a real file: the
// CLI's import of it), not by the engine.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { englishTexts } from './english_texts';
import { DEMO_BASE, dragSelect, dropFile, holdsWithin, importedCopy, openAppForEachTest, openTimeline, REAL_TRACE_AND_EXPORT, timelineRows, waitIdle } from './helpers';
import { sql, unionIn } from './sql_oracle';

openAppForEachTest({ demo: true });

const ALL = [-(2n ** 62n), 2n ** 62n] as const;
const LABELS = 230;

/** A PPU's work from the tables: kernels (PCCL ones too) and memory operations (memcpys, memsets). */
function workOf(device: number, db = DEMO_BASE): { memory: boolean; span: [bigint, bigint] }[] {
  const rows = sql(
    `SELECT 0, start, end FROM HGGC_KERNEL WHERE deviceId = ${device} AND end IS NOT NULL
     UNION ALL SELECT 1, start, end FROM HGGC_MEMCPY WHERE deviceId = ${device} AND end IS NOT NULL
     UNION ALL SELECT 1, start, end FROM HGGC_MEMSET WHERE deviceId = ${device} AND end IS NOT NULL`,
    db,
  );
  return rows.map(([m, s, e]) => ({ memory: m === '1', span: [BigInt(s), BigInt(e)] }));
}

function hasTable(db: string, table: string): boolean {
  return sql(`SELECT count(*) FROM sqlite_master WHERE name = '${table}'`, db)[0][0] === '1';
}

/** The PPUs with work in `db`, by id. */
function devicesOf(db: string): number[] {
  const parts = ['HGGC_KERNEL', 'HGGC_MEMCPY', 'HGGC_MEMSET'].filter((t) => hasTable(db, t)).map((t) => `SELECT deviceId FROM ${t}`);
  if (parts.length === 0) return [];
  return sql(`SELECT DISTINCT deviceId FROM (${parts.join(' UNION ALL ')}) ORDER BY 1`, db).map(([d]) => Number(d));
}

/** A share as the rows show it ("62.0%"). */
const shown = (part: bigint, whole: bigint) => `${((Number(part) / Number(whole)) * 100).toFixed(1)}%`;

/** The device row's label, worked out from the tables over [from, to). */
function expectedLabel(work: { memory: boolean; span: [bigint, bigint] }[], from: bigint, to: bigint, zh = false): string {
  const busy = unionIn(work.map((w) => w.span), from, to);
  const kernels = unionIn(work.filter((w) => !w.memory).map((w) => w.span), from, to);
  const memory = unionIn(work.filter((w) => w.memory).map((w) => w.span), from, to);
  return zh
    ? `设备 — kernel ${shown(kernels, busy)} · 内存操作 ${shown(memory, busy)}`
    : `Device — kernels ${shown(kernels, busy)} · memory ${shown(memory, busy)}`;
}

/** Each PPU's rows in order, by device id. */
async function rowsByDevice(page: Page) {
  const rows = (await timelineRows(page)).filter((r) => r.group.startsWith('PPU '));
  const out = new Map<number, typeof rows>();
  for (const r of rows) {
    const d = Number(/^PPU (\d+)/.exec(r.group)![1]);
    out.set(d, [...(out.get(d) ?? []), r]);
  }
  return out;
}

const isDevice = (label: string) => /^(Device|设备)( —|$)/.test(label);

test('each PPU has a device row after its streams and PCCL kernels: its kernels\' and memory operations\' shares of the PPU\'s busy time', async ({ page }) => {
  await openTimeline(page);
  const byDevice = await rowsByDevice(page);
  expect([...byDevice.keys()]).toEqual(devicesOf(DEMO_BASE));
  for (const [d, rows] of byDevice) {
    const labels = rows.map((r) => r.label);
    const at = labels.findIndex(isDevice);
    expect(at, `PPU ${d}'s device row`).toBeGreaterThan(0);
    expect(labels.filter(isDevice)).toHaveLength(1);
    // After every work row of its PPU ([All Streams], its streams, the PCCL kernels), before the rest.
    const lastWork = labels.reduce((last, l, i) => (/^(\[All Streams\]|Stream \d+|PCCL kernels) /.test(l) ? i : last), -1);
    expect(at).toBe(lastWork + 1);
    expect(labels[at]).toBe(expectedLabel(workOf(d), ...ALL));
    // Two lanes: kernels over memory operations.
    const item = page.getByTestId('timeline-rows').locator(`li[data-track="${rows[at].track}"]`);
    await expect(item).toHaveAttribute('data-height', '32');
    await expect(item).toHaveAttribute('data-device-row', 'true');
  }
  // The legend says which colour is which.
  const legend = page.getByTestId('tl-device-legend');
  await expect(legend).toBeVisible();
  await expect(legend).toContainText('HtoD');
  await expect(legend).toContainText('pageable');
  await expect(legend).toContainText('pinned');
  // The toolbar's counts are the report's: the device rows draw the PPUs' work again.
  await expect(page.getByTestId('timeline-window')).toContainText('90 tracks');
});

test('a click on the device row\'s lower lane selects a memory operation on its own stream; its tooltip names its memory kinds', async ({ page }) => {
  await openTimeline(page);
  const byDevice = await rowsByDevice(page);
  const [d, rows] = [...byDevice.entries()][0];
  const device = rows.find((r) => isDevice(r.label))!;
  const top = Number(await page.getByTestId('timeline-rows').locator(`li[data-track="${device.track}"]`).getAttribute('data-top'));
  await page.locator('.timeline-scroll').evaluate((el, y) => (el.scrollTop = Math.max(0, y - 80)), top);
  await waitIdle(page);
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  const details = page.getByTestId('tl-details');
  // The memory lane is the row's second: 16 px below its top.
  const y = top + 16 + 8;
  // The lower lane holds only memory operations: where a tooltip shows, one is under the pointer; a click there selects it.
  const tipAt = page.getByTestId('timeline-tip');
  let hit = false;
  for (let f = 0.01; f < 1 && !hit; f += 0.01) {
    const x = LABELS + (box.width - LABELS) * f;
    await page.mouse.move(box.x + x, box.y + y);
    if ((await tipAt.count()) === 0) continue;
    await canvas.click({ position: { x, y } });
    hit = await holdsWithin(async () => /^(memcpy|memset)$/.test((await details.getAttribute('data-selected-kind')) ?? ''), 3000);
  }
  expect(hit).toBe(true);
  const selected = (await details.getAttribute('data-selected-track'))!;
  const own = (await timelineRows(page)).find((r) => r.track === selected)!;
  expect(own.label).toMatch(/^Stream \d+ /);
  expect(own.group).toBe(device.group);
  const start = BigInt((await details.getAttribute('data-selected-start'))!);
  const kind = await details.getAttribute('data-selected-kind');
  const stream = Number(/^Stream (\d+)/.exec(own.label)![1]);
  const table = kind === 'memcpy' ? 'HGGC_MEMCPY' : 'HGGC_MEMSET';
  expect(sql(`SELECT start FROM ${table} WHERE deviceId = ${d} AND streamId = ${stream}`).map(([s]) => BigInt(s))).toContain(start);
  // The tooltip of a memcpy on the lane: its source and destination memory kinds, as the table has them for a memcpy starting there.
  const kinds = new Map(sql('SELECT id, label FROM ENUM_HGGC_MEM_KIND').map(([id, label]) => [id, label]));
  const copies = sql(`SELECT start, srcKind, dstKind FROM HGGC_MEMCPY WHERE deviceId = ${d}`);
  const said = new Set(copies.map(([, s, t]) => `from ${kinds.get(s)} memory to ${kinds.get(t)} memory`));
  const layer = (await canvas.boundingBox())!; // the pointer layer scrolls with the rows: a row's data-top is its y on it
  let tip = '';
  for (let f = 0.01; f < 1 && !tip; f += 0.01) {
    await page.mouse.move(layer.x + LABELS + (layer.width - LABELS) * f, layer.y + y);
    const t = page.getByTestId('timeline-tip');
    if ((await t.count()) > 0) {
      const text = await t.innerText();
      if (/^Memcpy /.test(text)) tip = text;
    }
  }
  expect(tip, 'a memcpy tooltip on the lower lane').not.toBe('');
  const line = tip.split('\n').find((l) => l.startsWith('from '));
  expect(said).toContain(line);
});

test('Filter and Zoom in: the device row\'s shares are recomputed for the statistics range, and in Chinese', async ({ page }) => {
  await openTimeline(page);
  await dragSelect(page, 0.3, 0.45);
  await page.getByTestId('tl-filter-zoom').click();
  await waitIdle(page);
  const view = page.getByTestId('timeline-view');
  await expect(view).toHaveAttribute('data-shares', 'range');
  const filter = (await view.getAttribute('data-filter-time'))!;
  const zero = BigInt((await view.getAttribute('data-zero'))!);
  const [from, to] = filter.split('/').map((v) => zero + BigInt(v));
  for (const [d, rows] of await rowsByDevice(page)) {
    const work = workOf(d);
    if (unionIn(work.map((w) => w.span), from, to) === 0n) continue; // a PPU idle in the range: no shares
    expect(rows.find((r) => isDevice(r.label))!.label).toBe(expectedLabel(work, from, to));
  }
  // Chinese: the row's label and the legend in it, no English of the interface's own.
  await page.getByTestId('lang-switch').selectOption('zh');
  await waitIdle(page);
  for (const [d, rows] of await rowsByDevice(page)) {
    const work = workOf(d);
    if (unionIn(work.map((w) => w.span), from, to) === 0n) continue;
    expect(rows.find((r) => isDevice(r.label))!.label).toBe(expectedLabel(work, from, to, true));
  }
  await expect(page.getByTestId('tl-device-legend')).toContainText('可分页');
  expect(await englishTexts(page)).toEqual([]);
});

const REAL = REAL_TRACE_AND_EXPORT;

for (const real of REAL) {
  test(`${real.name}: each PPU's device row and its shares, against SQL over the CLI's import`, async ({ page }) => {
    test.skip(!existsSync(real.file), `real data file missing: ${real.file}`);
    test.setTimeout(150_000);
    const db = importedCopy(real.file, 'asys-ppu-rows-');
    await dropFile(page, path.basename(real.file), readFileSync(real.file), real.type);
    await waitIdle(page);
    await expect(page.getByTestId('summary-file')).toHaveText(path.basename(real.file));
    await openTimeline(page);
    const byDevice = await rowsByDevice(page);
    const devices = devicesOf(db);
    expect(devices.length).toBeGreaterThan(0);
    expect([...byDevice.keys()]).toEqual(devices);
    for (const [d, rows] of byDevice) {
      const labels = rows.map((r) => r.label);
      expect(labels.filter(isDevice)).toEqual([expectedLabel(workOf(d, db), ...ALL)]);
    }
    // Nothing broken: a click on the first device row's upper lane selects a kernel on its own row.
    const device = [...byDevice.values()][0].find((r) => isDevice(r.label))!;
    const top = Number(await page.getByTestId('timeline-rows').locator(`li[data-track="${device.track}"]`).getAttribute('data-top'));
    await page.locator('.timeline-scroll').evaluate((el, y) => (el.scrollTop = Math.max(0, y - 80)), top);
    await waitIdle(page);
    const canvas = page.getByTestId('timeline-canvas');
    const box = (await canvas.boundingBox())!;
    const details = page.getByTestId('tl-details');
    // The upper lane holds only kernels: where a tooltip shows, a slice is under the pointer; a click there selects it.
    const tip = page.getByTestId('timeline-tip');
    let hit = false;
    for (let f = 0.01; f < 1 && !hit; f += 0.01) {
      const x = LABELS + (box.width - LABELS) * f;
      await page.mouse.move(box.x + x, box.y + top + 8);
      if ((await tip.count()) === 0) continue;
      await canvas.click({ position: { x, y: top + 8 } });
      hit = await holdsWithin(async () => (await details.getAttribute('data-selected-kind')) === 'kernel', 3000);
    }
    expect(hit).toBe(true);
    const selected = (await details.getAttribute('data-selected-track'))!;
    expect(selected).not.toBe(device.track);
    const own = (await timelineRows(page)).find((r) => r.track === selected)!;
    expect(own.group).toBe(device.group);
  });
}

test('zoomed out, a row with more events than pixels is an occupancy histogram; a click still picks its event; zoomed in, slices again', async ({ page }) => {
  await openTimeline(page);
  const canvas = page.getByTestId('timeline-canvas');
  // The demo's threads make 2,237 HGGC API calls each, more than the plot's ~1,170 px; its streams ~1,000 events, fewer.
  const calls = Number(sql('SELECT count(*) FROM HGGC_API GROUP BY globalTid ORDER BY 1 DESC LIMIT 1')[0][0]);
  const rows = await timelineRows(page);
  const api = rows.find((r) => / HGGC API /.test(r.label))!;
  expect(calls).toBeGreaterThan(1200);
  const item = page.getByTestId('timeline-rows').locator(`li[data-track="${api.track}"]`);
  const top = Number(await item.getAttribute('data-top'));
  await page.locator('.timeline-scroll').evaluate((el, y) => (el.scrollTop = Math.max(0, y - 80)), top);
  await waitIdle(page);
  await expect(canvas).toHaveAttribute('data-histograms', /^[1-9]\d*$/);
  // Hovering the row says how busy the pointer's pixel is; a click picks an event of its own.
  const box = (await canvas.boundingBox())!;
  const details = page.getByTestId('tl-details');
  const tip = page.getByTestId('timeline-tip');
  let busy = '';
  let picked = false;
  for (let f = 0.02; f < 1 && !(busy && picked); f += 0.02) {
    const x = LABELS + (box.width - LABELS) * f;
    await page.mouse.move(box.x + x, box.y + top + 8);
    if ((await tip.count()) > 0) {
      const line = (await tip.innerText()).split('\n')[0];
      if (/^busy \d+\.\d% of this pixel's time/.test(line)) busy = line;
    }
    if (!picked) {
      await canvas.click({ position: { x, y: top + 8 } });
      picked = (await details.getAttribute('data-selected-track')) === api.track;
    }
  }
  expect(busy, 'the tooltip of a histogram row').not.toBe('');
  expect(picked, 'a click on a histogram row picks its event').toBe(true);
  // Zoomed far in: slices, no histogram.
  await canvas.focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('+');
  await waitIdle(page);
  await expect(canvas).toHaveAttribute('data-histograms', '0');
});
