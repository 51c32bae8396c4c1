/// <reference lib="webworker" />
// The engine's Web Worker: loads the WebAssembly module (a static file next to
// the page, not bundled), then answers the UI's coarse requests one at a time.
import {
  errorText,
  isOutOfMemory,
  outOfMemoryMessage,
  parseEngineJson,
  ReportMounts,
  takeRenderedText,
  takeRunResult,
  takeSortOrder,
  takeTimeWindow,
  okOrError,
  withoutMountDirs,
  type AsysEngine,
} from './engine_api';
import { PROTOCOL_VERSION, type OpenResult, type RequestMessage, type ResponseMessage } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

let engineUrl = '';
let enginePromise: Promise<AsysEngine> | null = null;
let mounts: ReportMounts | null = null;
// The request id and row count of the engine's last runRule result (the one sortOrder sorts).
let lastRun: { id: number; rows: number } | null = null;
// The open report's (first) file name, for the out-of-memory message.
let openName = '';

/** Runs an engine call for `rule`; running out of memory becomes the one line that suggests the CLI. */
function explained<T>(rule: string, call: () => T): T {
  try {
    return call();
  } catch (e) {
    if (isOutOfMemory(errorText(e))) throw new Error(outOfMemoryMessage(openName, rule));
    throw e;
  }
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
  mounts = new ReportMounts(engine);
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
      const e = await engine();
      lastRun = null;
      let summary: unknown;
      try {
        summary = mounts!.open(files, (loaded, total) => post({ id, kind: 'progress', loaded, total }));
      } catch (err) {
        if (isFatal(err)) throw err;
        if (isOutOfMemory(errorText(err))) throw new Error(outOfMemoryMessage(files[0].name));
        // The engine names the files by their paths here: /reports/N/ means nothing to the user.
        throw new Error(withoutMountDirs(errorText(err)));
      }
      const capabilities = {
        sortOrder: typeof e.sortOrder === 'function',
        setTimeFilter: typeof e.setTimeFilter === 'function',
        ruleConfig: typeof e.setRuleConfig === 'function' && typeof e.checkRuleOption === 'function',
      };
      openName = files[0].name;
      const result: OpenResult = {
        summary,
        fileName: files[0].name,
        fileNames: files.map((f) => f.name),
        fileSize: files.reduce((sum, f) => sum + f.size, 0),
        capabilities,
      };
      post({ id, kind: 'result', result });
      return;
    }
    case 'listRules': {
      const e = await engine();
      post({ id, kind: 'result', result: parseEngineJson(e.listRules(), 'listRules') });
      return;
    }
    case 'run': {
      const e = await engine();
      lastRun = null;
      const result = explained(msg.rule, () => takeRunResult(e.runRule(msg.rule, JSON.stringify(msg.options)), e));
      lastRun = { id, rows: result.rowCount };
      result.runId = id;
      const buffers = [...result.cells, ...(result.spans ?? []).flatMap((s) => [s.start, s.end])].map((a) => a.buffer as ArrayBuffer);
      post({ id, kind: 'result', result }, buffers);
      return;
    }
    case 'sort': {
      const e = await engine();
      if (typeof e.sortOrder !== 'function') throw new Error('this engine cannot sort (no sortOrder)');
      if (!lastRun || lastRun.id !== msg.runId) throw new Error('the result to sort is no longer the last one');
      const order = takeSortOrder(e.sortOrder(msg.column, msg.descending), e, lastRun.rows);
      post({ id, kind: 'result', result: order }, [order.buffer as ArrayBuffer]);
      return;
    }
    case 'setTimeFilter': {
      const e = await engine();
      if (typeof e.setTimeFilter !== 'function') throw new Error('this engine has no time filter');
      post({ id, kind: 'result', result: { window: takeTimeWindow(e.setTimeFilter(msg.filterTime, msg.filterHgtx)) } });
      return;
    }
    case 'setRuleConfig': {
      const e = await engine();
      if (typeof e.setRuleConfig !== 'function') throw new Error('this engine has no global rule options');
      const error = okOrError(e.setRuleConfig(JSON.stringify(msg.config)), 'setRuleConfig');
      if (error) throw new Error(error);
      post({ id, kind: 'result', result: { ok: true } });
      return;
    }
    case 'checkRuleOption': {
      const e = await engine();
      if (typeof e.checkRuleOption !== 'function') throw new Error('this engine has no global rule options');
      post({ id, kind: 'result', result: okOrError(e.checkRuleOption(msg.name, msg.value), 'checkRuleOption') });
      return;
    }
    case 'csv': {
      const e = await engine();
      const text = explained(msg.rule, () => takeRenderedText(e.renderRule(msg.rule, JSON.stringify(msg.options), 'csv')));
      post({ id, kind: 'result', result: text });
      return;
    }
  }
}

function isFatal(e: unknown): boolean {
  return e instanceof WebAssembly.RuntimeError || /abort/i.test(errorText(e));
}

// One request at a time: the engine is synchronous and holds one report.
let queue: Promise<void> = Promise.resolve();

self.onmessage = (ev: MessageEvent<RequestMessage>) => {
  const msg = ev.data;
  queue = queue.then(() =>
    handle(msg).catch((e) => {
      if (isFatal(e)) {
        // The module is unusable after an abort: start a fresh one next time.
        enginePromise = null;
        mounts = null;
        lastRun = null;
        const why = isOutOfMemory(errorText(e))
          ? outOfMemoryMessage(openName, 'rule' in msg ? msg.rule : undefined)
          : `the engine stopped (${errorText(e)})`;
        post({ id: msg.id, kind: 'error', error: `${why}; open the report again` });
      } else {
        post({ id: msg.id, kind: 'error', error: errorText(e) });
      }
    }),
  );
};
