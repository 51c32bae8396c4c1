/// <reference lib="webworker" />
// The engine's Web Worker: loads the WebAssembly module (a static file next to
// the page, not bundled), then answers the UI's coarse requests one at a time.
import {
  checkEngineVersion,
  errorText,
  isOutOfMemory,
  outOfMemoryMessage,
  timelineOutOfMemoryMessage,
  ReportMounts,
  exportCsvBlob,
  takeWorkbook,
  takeRunResult,
  takePagedRun,
  takePage,
  takeSearchMask,
  takeKeyTotals,
  takeRowList,
  takeColumnTotals,
  takeSortOrder,
  takeTimeWindow,
  okOrError,
  unwrap,
  withoutMountDirs,
  type AsysEngine,
} from './engine_api';
import {
  takeEventRow,
  takeEventsView,
  takeEventsViewEvent,
  takeEventsViewRow,
  takeFoundEvent,
  takeResultRow,
  takeSelectionStats,
  takeTimelineInfo,
  takeTimelineShares,
  takeTimelineRelated,
  takeTimelineWindow,
  windowBuffers,
} from './timeline_api';
import type { RawRuleResult } from './types';
import { PROTOCOL_VERSION, type OpenResult, type RequestMessage, type ResponseMessage, type SelectionAnswer } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

let engineUrl = '';
let enginePromise: Promise<AsysEngine> | null = null;
let mounts: ReportMounts | null = null;
// The engine's results by id with their row counts (for checking a sort's answer).
const results = new Map<number, number>();
// Each open report's (first) file name, for the out-of-memory message.
const reportNames = new Map<number, string>();

/** Runs an engine call for `rule` on `report`; running out of memory becomes the one line that suggests the CLI. */
function explained<T>(report: number, rule: string | null, call: () => T): T {
  try {
    return call();
  } catch (e) {
    if (!isOutOfMemory(errorText(e))) throw e;
    const name = reportNames.get(report) ?? 'the report';
    throw new Error(rule === null ? timelineOutOfMemoryMessage(name) : outOfMemoryMessage(name, rule));
  }
}

/** Posts a run's result, its typed arrays transferred, and remembers its id. */
function postResult(id: number, result: RawRuleResult): void {
  if (result.resultId !== undefined) results.set(result.resultId, result.rowCount);
  post({ id, kind: 'result', result }, resultBuffers(result));
}

/** A result's typed arrays, for the transfer list. */
function resultBuffers(r: RawRuleResult): ArrayBuffer[] {
  const arrays = [...r.cells, ...(r.spans ?? []).flatMap((s) => [s.start, s.end]), ...(r.events ?? []).flatMap((e) => [e.table, e.index])];
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

function post(msg: ResponseMessage, transfer: Transferable[] = []): void {
  self.postMessage(msg, transfer);
}

async function loadEngine(): Promise<AsysEngine> {
  if (!engineUrl) throw new Error('engine worker: no engine URL (init missing)');
  const mod = await import(/* @vite-ignore */ engineUrl).catch((e) => {
    throw new Error(`could not load the WebAssembly engine from ${engineUrl}: ${errorText(e)}`);
  });
  const factory = (mod.default ?? mod.createAsysEngine) as (opts: object) => Promise<AsysEngine>;
  if (typeof factory !== 'function') throw new Error(`${engineUrl} has no createAsysEngine factory`);
  const engine = await factory({
    locateFile: (p: string) => new URL(p, engineUrl).href,
    print: () => {},
    printErr: (s: string) => console.warn('[engine]', s),
  });
  checkEngineVersion(engine);
  mounts = new ReportMounts(engine);
  // For bench/browser-soak.mjs: the engine's WebAssembly memory, which grows and never shrinks.
  (self as unknown as { __asysHeapBytes?: () => number }).__asysHeapBytes = () =>
    engine.HEAPU8?.length ?? engine.wasmMemory?.buffer.byteLength ?? 0;
  return engine;
}

function engine(): Promise<AsysEngine> {
  if (!enginePromise) {
    enginePromise = loadEngine();
    enginePromise.catch(() => {
      enginePromise = null; // try again on the next request
    });
  }
  return enginePromise;
}

async function fetchDemo(id: number, url: string, fileName: string): Promise<File> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`demo report ${fileName}: HTTP ${res.status} ${res.statusText}`.trim());
  const total = Number(res.headers.get('content-length')) || 0;
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  if (res.body) {
    const reader = res.body.getReader();
    let lastPost = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.length;
      const now = Date.now();
      if (now - lastPost > 50) {
        post({ id, kind: 'progress', loaded, total });
        lastPost = now;
      }
    }
  } else {
    const buf = new Uint8Array(await res.arrayBuffer());
    chunks.push(buf);
    loaded = buf.length;
  }
  post({ id, kind: 'progress', loaded, total: total || loaded });
  return new File(chunks as BlobPart[], fileName, { type: 'application/octet-stream' });
}

async function handle(msg: RequestMessage): Promise<void> {
  const { id } = msg;
  if (msg.version !== PROTOCOL_VERSION) throw new Error(`protocol version ${msg.version}, worker speaks ${PROTOCOL_VERSION}`);
  switch (msg.type) {
    case 'init':
      engineUrl = msg.engineUrl;
      post({ id, kind: 'result', result: { ok: true } });
      return;
    case 'open':
    case 'openDemo': {
      const files = msg.type === 'open' ? msg.files : [await fetchDemo(id, msg.url, msg.fileName)];
      if (!files || files.length === 0) throw new Error('no file to open');
      await engine();
      let opened;
      try {
        opened = mounts!.open(files, (loaded, total) => post({ id, kind: 'progress', loaded, total }));
      } catch (err) {
        if (isFatal(err)) throw err;
        if (isOutOfMemory(errorText(err))) throw new Error(outOfMemoryMessage(files[0].name));
        // The engine names the files by their paths here: /reports/N/ means nothing to the user.
        throw new Error(withoutMountDirs(errorText(err)));
      }
      reportNames.set(opened.report, files[0].name);
      const result: OpenResult = {
        report: opened.report,
        summary: opened.summary,
        fileName: files[0].name,
        fileNames: files.map((f) => f.name),
        fileSize: files.reduce((sum, f) => sum + f.size, 0),
      };
      post({ id, kind: 'result', result });
      return;
    }
    case 'close': {
      await engine();
      mounts!.close(msg.report);
      reportNames.delete(msg.report);
      post({ id, kind: 'result', result: { ok: true } });
      return;
    }
    case 'listRules': {
      const e = await engine();
      post({ id, kind: 'result', result: unwrap(e.listRules(msg.report), 'listRules').rules });
      return;
    }
    case 'run': {
      const e = await engine();
      const options = JSON.stringify(msg.options);
      const limit = msg.cellLimit ?? Number.POSITIVE_INFINITY;
      postResult(id, explained(msg.report, msg.rule, () => takePagedRun(e.runPaged(msg.report, msg.rule, options, limit), e)));
      return;
    }
    case 'pageRows': {
      const e = await engine();
      const page = takePage(e.pageRows(msg.result, msg.rows), e);
      post({ id, kind: 'result', result: page }, resultBuffers(page));
      return;
    }
    case 'searchRows': {
      const e = await engine();
      const mask = takeSearchMask(e.searchRows(msg.result, msg.query, msg.first, msg.count, msg.times), e);
      post({ id, kind: 'result', result: mask }, mask ? [mask.buffer as ArrayBuffer] : []);
      return;
    }
    case 'keyTotals': {
      const e = await engine();
      const totals = takeKeyTotals(e.keyTotals(msg.result, msg.keyCol, msg.valueCol, msg.first, msg.count), e);
      post({ id, kind: 'result', result: totals }, [totals.values.buffer as ArrayBuffer]);
      return;
    }
    case 'rowsWithKeys': {
      const e = await engine();
      const rows = takeRowList(e.rowsWithKeys(msg.result, msg.keyCol, msg.keys, msg.first, msg.count), e, 'rowsWithKeys');
      post({ id, kind: 'result', result: rows }, [rows.buffer as ArrayBuffer]);
      return;
    }
    case 'columnTotals': {
      const e = await engine();
      post({ id, kind: 'result', result: takeColumnTotals(e.columnTotals(msg.result, msg.cols, msg.rows, msg.summaryRow, msg.first, msg.count)) });
      return;
    }
    case 'runCompare': {
      const e = await engine();
      const options = JSON.stringify(msg.options);
      const raw = explained(msg.base, msg.rule, () =>
        takeRunResult(e.runCompare(msg.base, msg.target, msg.rule, options), e),
      );
      postResult(id, raw);
      return;
    }
    case 'sort': {
      const e = await engine();
      const order = takeSortOrder(e.sortOrder(msg.result, msg.column, msg.descending), e, results.get(msg.result));
      post({ id, kind: 'result', result: order }, [order.buffer as ArrayBuffer]);
      return;
    }
    case 'exportCsv': {
      const e = await engine();
      post({ id, kind: 'result', result: exportCsvBlob(e, msg.result, results.get(msg.result) ?? 0) });
      return;
    }
    case 'renderXlsx': {
      const e = await engine();
      const bytes = takeWorkbook(e.renderXlsx(msg.result, msg.sheet));
      post({ id, kind: 'result', result: bytes }, [bytes.buffer as ArrayBuffer]);
      return;
    }
    case 'release': {
      const e = await engine();
      results.delete(msg.result);
      unwrap(e.release(msg.result), 'release');
      post({ id, kind: 'result', result: { ok: true } });
      return;
    }
    case 'setTimeFilter': {
      const e = await engine();
      post({ id, kind: 'result', result: { window: takeTimeWindow(e.setTimeFilter(msg.report, msg.filterTime, msg.filterHgtx)) } });
      return;
    }
    case 'setRuleConfig': {
      const e = await engine();
      const error = okOrError(e.setRuleConfig(JSON.stringify(msg.config)), 'setRuleConfig');
      if (error) throw new Error(error);
      post({ id, kind: 'result', result: { ok: true } });
      return;
    }
    case 'checkRuleOption': {
      const e = await engine();
      post({ id, kind: 'result', result: okOrError(e.checkRuleOption(msg.name, msg.value), 'checkRuleOption') });
      return;
    }
    case 'timelineTracks': {
      const e = await engine();
      post({
        id,
        kind: 'result',
        result: explained(msg.report, null, () => {
          // The build (its errors said as timelineTracks says them), then the
          // PPUs' device rows added (no events of their own), then the list.
          const built = takeTimelineInfo(e.timelineTracks(msg.report));
          // The device rows are a view of the built tracks: where they cannot
          // be made (the heap at its ceiling), the timeline opens without
          // them and says so.
          let added = 0;
          try {
            added = Number(unwrap(e.timelineDeviceRows(msg.report), 'timelineDeviceRows').added) || 0;
          } catch (err) {
            return { ...built, notes: [...(built.notes ?? []), `No device rows: ${err instanceof Error ? err.message : String(err)}`] };
          }
          // The graph rows likewise (a row per graph exec on a stream, a
          // slice per launch): a summary of the built tracks' activities.
          const noted: string[] = [];
          try {
            added += Number(unwrap(e.timelineGraphRows(msg.report), 'timelineGraphRows').added) || 0;
          } catch (err) {
            noted.push(`No graph rows: ${err instanceof Error ? err.message : String(err)}`);
          }
          const info = added > 0 ? takeTimelineInfo(e.timelineTracks(msg.report)) : built;
          return noted.length ? { ...info, notes: [...(info.notes ?? []), ...noted] } : info;
        }),
      });
      return;
    }
    case 'timelineShares': {
      const e = await engine();
      post({ id, kind: 'result', result: explained(msg.report, null, () => takeTimelineShares(e.timelineShares(msg.report, String(msg.from), String(msg.to)))) });
      return;
    }
    case 'timelineKernelGroups': {
      const e = await engine();
      post({ id, kind: 'result', result: explained(msg.report, null, () => ({ added: Number(unwrap(e.timelineKernelGroups(msg.report, msg.tracks), 'timelineKernelGroups').added) || 0 })) });
      return;
    }
    case 'timelineKernelRangeGroups': {
      const e = await engine();
      post({ id, kind: 'result', result: explained(msg.report, null, () => ({ added: Number(unwrap(e.timelineKernelRangeGroups(msg.report, msg.tracks), 'timelineKernelRangeGroups').added) || 0 })) });
      return;
    }
    case 'timelineWindow': {
      const e = await engine();
      const began = performance.now();
      const w = explained(msg.report, null, () =>
        takeTimelineWindow(e.timelineWindow(msg.report, String(msg.from), String(msg.to), msg.pixels, msg.tracks)),
      );
      w.workerMs = performance.now() - began;
      post({ id, kind: 'result', result: w }, windowBuffers(w));
      return;
    }
    case 'timelineRelated': {
      const e = await engine();
      const related = explained(msg.report, null, () => takeTimelineRelated(e.timelineRelated(msg.report, msg.track, msg.event)));
      post({ id, kind: 'result', result: related });
      return;
    }
    case 'timelineSelection': {
      const e = await engine();
      const limit = msg.cellLimit ?? Number.POSITIVE_INFINITY;
      const answer = explained(msg.report, null, () => e.timelineSelection(msg.report, String(msg.from), String(msg.to), limit));
      const stats = takeSelectionStats(answer);
      const result = takePagedRun(answer, e);
      if (result.resultId !== undefined) results.set(result.resultId, result.rowCount);
      const out: SelectionAnswer = { stats, result };
      post({ id, kind: 'result', result: out }, resultBuffers(result));
      return;
    }
    case 'timelineFindEvent': {
      const e = await engine();
      post({ id, kind: 'result', result: explained(msg.report, null, () => takeFoundEvent(e.timelineFindEvent(msg.report, msg.table, msg.index))) });
      return;
    }
    case 'timelineEventRow': {
      const e = await engine();
      post({ id, kind: 'result', result: explained(msg.report, null, () => takeEventRow(e.timelineEventRow(msg.report, msg.track, msg.event))) });
      return;
    }
    case 'resultRowOfEvent': {
      const e = await engine();
      post({ id, kind: 'result', result: takeResultRow(e.resultRowOfEvent(msg.result, msg.table, msg.index)) });
      return;
    }
    case 'eventsView': {
      const e = await engine();
      postResult(id, explained(msg.report, null, () => takeEventsView(e.eventsView(msg.report, msg.track), e)));
      return;
    }
    case 'eventsViewEvent': {
      const e = await engine();
      post({ id, kind: 'result', result: takeEventsViewEvent(e.eventsViewEvent(msg.result, msg.row)) });
      return;
    }
    case 'eventsViewRow': {
      const e = await engine();
      post({ id, kind: 'result', result: takeEventsViewRow(e.eventsViewRow(msg.result, msg.event)) });
      return;
    }
    case 'checkOption': {
      const e = await engine();
      post({ id, kind: 'result', result: okOrError(e.checkOption(msg.rule, msg.name, msg.value), 'checkOption') });
      return;
    }
  }
}

function isFatal(e: unknown): boolean {
  return e instanceof WebAssembly.RuntimeError || /abort/i.test(errorText(e));
}

// One request at a time: the engine is synchronous.
let queue: Promise<void> = Promise.resolve();

self.onmessage = (ev: MessageEvent<RequestMessage>) => {
  const msg = ev.data;
  queue = queue.then(() =>
    handle(msg).catch((e) => {
      if (isFatal(e)) {
        // The module is unusable after an abort: start a fresh one next time.
        enginePromise = null;
        mounts = null;
        results.clear();
        const report = 'report' in msg ? msg.report : 'base' in msg ? msg.base : 0;
        const why = isOutOfMemory(errorText(e))
          ? outOfMemoryMessage(reportNames.get(report) ?? 'the report', 'rule' in msg ? msg.rule : undefined)
          : `the engine stopped (${errorText(e)})`;
        reportNames.clear();
        post({ id: msg.id, kind: 'error', error: withoutMountDirs(`${why}; open the reports again`) });
      } else {
        // Any request's message may name a file by its mount path (/reports/N/...): never shown.
        post({ id: msg.id, kind: 'error', error: withoutMountDirs(errorText(e)) });
      }
    }),
  );
};
