// The Events view's engine cost on one report, in the WebAssembly engine
// under Node (the browser's engine): the timeline built first (its own
// cost, bench/timeline-run.mjs), then for the stream with the most events
// and the thread with the most API calls: opening the Events view
// (eventsView), a page of 100 rows at its end, sorting by Duration (a track
// column) and by GrdX / CorrId (a column read from the report), a search
// over every row, and the CSV export in 65,536-row parts; the engine's
// heap (its WebAssembly memory, which only grows) before and after.
// Usage: node bench/events-view-run.mjs REPORT
import { loadNodeEngine } from './node-engine.mjs';

const [report] = process.argv.slice(2);
const engine = await loadNodeEngine();
const ok = (v, what) => {
  if (!v.ok) throw new Error(`${what}: ${v.error}`);
  return v;
};
const heapMiB = () => (engine.HEAP8.buffer.byteLength / 2 ** 20).toFixed(0);
const timed = (fn) => {
  const t0 = performance.now();
  const v = fn();
  return [v, performance.now() - t0];
};

const opened = ok(engine.open([report]), 'open');
const [info, build] = timed(() => ok(engine.timelineTracks(opened.report), 'timelineTracks'));
console.log(`timeline: ${info.tracks.length} tracks, ${info.tracks.reduce((n, t) => n + t.events, 0)} events, built in ${(build / 1000).toFixed(1)} s; heap ${heapMiB()} MiB`);

const biggest = (re) => info.tracks.filter((t) => re.test(t.label)).sort((a, b) => b.events - a.events)[0];
for (const [what, track, reportColumn] of [
  ['stream', biggest(/^Stream \d+$/), 4],
  ['API thread', biggest(/ HGGC API$/), 3],
]) {
  if (!track) continue;
  const [v, open] = timed(() => ok(engine.eventsView(opened.report, track.id), 'eventsView'));
  const rows = Array.from({ length: Math.min(100, v.rowCount) }, (_, i) => v.rowCount - 1 - i);
  const [, page] = timed(() => ok(engine.pageRows(v.result, Uint32Array.from(rows)), 'pageRows'));
  const [byDuration, sortTrack] = timed(() => ok(engine.sortOrder(v.result, 2, true), 'sortOrder'));
  const [, pageSorted] = timed(() => ok(engine.pageRows(v.result, byDuration.order.slice(Math.floor(v.rowCount / 2), Math.floor(v.rowCount / 2) + 100)), 'pageRows'));
  const [, sortReport] = timed(() => ok(engine.sortOrder(v.result, reportColumn, false), 'sortOrder'));
  const [, search] = timed(() => ok(engine.searchRows(v.result, 'zzz_no_such_name', 0, v.rowCount, null), 'searchRows'));
  const [bytes, csv] = timed(() => {
    let n = 0;
    for (let first = 0; first < v.rowCount; first += 65536) n += ok(engine.renderCsvRows(v.result, first, 65536), 'renderCsvRows').bytes.length;
    return n;
  });
  console.log(
    `${what} ${track.group} / ${track.label}: ${v.rowCount} rows; open ${open.toFixed(1)} ms, last 100 rows ${page.toFixed(1)} ms, ` +
      `sort by Duration ${(sortTrack / 1000).toFixed(2)} s, 100 rows mid-sorted ${pageSorted.toFixed(1)} ms, sort by ${v.columns[reportColumn].name} ${(sortReport / 1000).toFixed(2)} s, ` +
      `search ${(search / 1000).toFixed(2)} s, CSV ${(bytes / 2 ** 20).toFixed(1)} MiB in ${(csv / 1000).toFixed(2)} s; heap ${heapMiB()} MiB`,
  );
  ok(engine.release(v.result), 'release');
}
