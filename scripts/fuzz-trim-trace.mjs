// Seeds for the Kineto importer's fuzzer from real traces: each trace cut
// to its metadata and first events of every category, so the seed is a few
// kilobytes that still reach each kind of event the importer maps.
// usage: node scripts/fuzz-trim-trace.mjs OUT_DIR TRACE.json[.gz]...
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const [outDir, ...traces] = process.argv.slice(2);
const perCategory = 6;
for (const path of traces) {
  let bytes = readFileSync(path);
  if (path.endsWith('.gz')) bytes = gunzipSync(bytes);
  const trace = JSON.parse(bytes.toString('utf8'));
  const seen = new Map();
  trace.traceEvents = (trace.traceEvents ?? []).filter((e) => {
    const key = `${e.ph}/${e.cat ?? ''}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n < perCategory;
  });
  writeFileSync(join(outDir, basename(path).replace(/\.gz$/, '')), JSON.stringify(trace));
}
