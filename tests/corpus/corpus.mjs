// The malformed-input corpus (docs/testing.md, "The malformed-input
// corpus"): broken, foreign and hostile inputs, each built here from the
// golden fixtures with a little SQL or a few bytes (nothing large is
// committed), with what asys must answer. Read by the CLI test
// (cli.test.mjs: exit status, exactly one stderr line naming the problem)
// and the viewer's (tests/e2e/corpus.spec.ts: the same line in the error
// banner or the rule's error, and the page keeps working).
//
// An entry:
//   name     what is broken (also the input's file name, with `ext`)
//   ext      the input's extension (.asysrep unless said)
//   make     (path) => writes the input at path
//   rule     the rule run on it (its `-r` value: options after ':')
//   config   extra CLI arguments (global rule options), [] unless said
//   at       'open' when the file itself is refused (the viewer's banner),
//            'rule' when the report opens and the rule fails
//   error    a regex the one error line must match (the problem named)
//   viewerError  the viewer's line where it differs (the browser's engine
//            has 2 GB, the CLI has the machine's memory)
//   exit     the CLI's exit status (1 unless said)
import { execFileSync } from 'node:child_process';
import { readFileSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const FIXTURES = fileURLToPath(new URL('../golden/fixtures/', import.meta.url));

/** Builds a golden fixture into an SQLite file, then runs `sql` on it. */
export function sqlReport(file, fixture, ...sql) {
  const script = readFileSync(path.join(FIXTURES, fixture), 'utf8') + '\n' + sql.map((s) => s + ';\n').join('');
  execFileSync('sqlite3', [file], { input: script });
}

const sqlite = (fixture, ...sql) => (file) => sqlReport(file, fixture, ...sql);
const bytes = (data) => (file) => writeFileSync(file, data);
// n 'a's: SQLite builds the long names, so the corpus stays small
const as = (n) => `replace(hex(zeroblob(${n})), '00', 'a')`;

// A Kineto trace of one kernel launched by one runtime call.
const KINETO = JSON.stringify({
  traceEvents: [
    { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: 1, tid: 2, ts: 10, dur: 5, args: { correlation: 7 } },
    { ph: 'X', cat: 'kernel', name: 'gemm', pid: 0, tid: 7, ts: 12, dur: 20, args: { device: 0, stream: 7, correlation: 7 } },
  ],
});

// A gzip bomb: 14 MB that inflate to one 3 GiB kernel name. Written by a
// child process that streams the deflate (zlib's sync API would need the
// whole text in memory); about a second.
const GZIP_BOMB_NAME_BYTES = 3221225472;
function gzipBomb(file) {
  const script = `
    const zlib = require('node:zlib'), fs = require('node:fs');
    const gz = zlib.createGzip({ level: 1 }), out = fs.createWriteStream(process.argv[1]);
    gz.pipe(out);
    gz.write('{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "');
    const chunk = Buffer.alloc(64 << 20, 'a');
    (async () => {
      for (let n = 0; n < ${GZIP_BOMB_NAME_BYTES}; n += chunk.length)
        if (!gz.write(chunk)) await new Promise((r) => gz.once('drain', r));
      gz.end('", "pid": 0, "tid": 7, "ts": 1, "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 1}}]}');
    })();`;
  execFileSync(process.execPath, ['-e', script, file]);
}

export const CORPUS = [
  // --- files that are not (readable) reports
  { name: 'empty', make: bytes(''), at: 'open', error: /empty\.asysrep: .*(empty|not a report)/ },
  {
    name: 'text',
    ext: '.txt',
    make: bytes('these are not the profiling data you are looking for\n'),
    at: 'open',
    error: /text\.txt: not a report asys can read/,
  },
  {
    name: 'truncated-half',
    make: (f) => {
      sqlReport(f, 'kernels.sql');
      truncateSync(f, Math.floor(statSync(f).size / 2));
    },
    at: 'open',
    error: /truncated-half\.asysrep: .*truncated/,
  },
  {
    name: 'truncated-header',
    make: (f) => {
      sqlReport(f, 'kernels.sql');
      truncateSync(f, 60);
    },
    at: 'open',
    error: /truncated-header\.asysrep: .*(truncated|not a report)/,
  },
  {
    name: 'garbage-pages',
    make: (f) => {
      sqlReport(f, 'kernels.sql');
      const b = readFileSync(f);
      for (let i = 4096; i < b.length; i++) b[i] = (i * 7919) & 0xff;
      writeFileSync(f, b);
    },
    at: 'open',
    error: /garbage-pages\.asysrep: not a report asys can read/,
  },
  {
    name: 'other-program',
    ext: '.sqlite',
    make: (f) =>
      execFileSync('sqlite3', [f], {
        input: "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places VALUES (1, 'x');",
      }),
    at: 'open',
    error: /other-program\.sqlite: not a report asys can read/,
  },
  { name: 'no-meta-data', make: sqlite('no_meta.sql'), at: 'open', error: /no-meta-data\.asysrep: not a report asys can read/ },
  { name: 'format-other', make: sqlite('bad_format.sql'), at: 'open', error: /format-other\.asysrep: not a report asys can read/ },
  {
    name: 'newer-version',
    make: sqlite('kernels.sql', "UPDATE META_DATA SET value = '99' WHERE name = 'formatVersion'"),
    at: 'open',
    error: /newer-version\.asysrep: asysrep format version 99 is newer than this build reads \(1\)/,
  },
  {
    name: 'nsys-rep',
    ext: '.nsys-rep',
    make: bytes('NVIDIA Tegra Profiler Report 2025@1@1@110-251135451612v0\n'),
    at: 'open',
    error: /nsys-rep\.nsys-rep: an Nsight Systems \.nsys-rep report; export it first/,
  },
  {
    // Found by the asysrep_reader fuzzer: std::stoll threw past every catch.
    name: 'capture-start-not-a-number',
    make: sqlite('kernels.sql', "INSERT OR REPLACE INTO META_DATA VALUES ('captureStart', 'soon')"),
    at: 'open',
    error: /capture-start-not-a-number\.asysrep: META_DATA captureStart 'soon' is not a time in nanoseconds/,
  },
  // --- traces that are not traces
  {
    name: 'bad-gzip',
    ext: '.json.gz',
    make: bytes(Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), Buffer.from('not deflate data at all')])),
    at: 'open',
    error: /bad-gzip\.json\.gz: corrupt gzip data/,
  },
  {
    name: 'gzip-cut-short',
    ext: '.json.gz',
    make: (f) => writeFileSync(f, gzipSync(KINETO).subarray(0, 40)),
    at: 'open',
    error: /gzip-cut-short\.json\.gz: truncated gzip file/,
  },
  {
    // Natively the name is read whole and refused (SQLite holds no text that
    // long); the browser's engine runs out of its 2 GB first, and says so.
    name: 'gzip-bomb-name',
    ext: '.json.gz',
    make: gzipBomb,
    at: 'open',
    error: /gzip-bomb-name\.json\.gz: a string of 3221225472 bytes is longer than a report's text may be \(1000000000 bytes\)/,
    viewerError: /Out of memory: opening gzip-bomb-name\.json\.gz needs more than the 2 GB a browser tab's engine can use; the command line has no such limit/,
  },
  { name: 'json-not-trace', ext: '.json', make: bytes('{"hello": 1}'), at: 'open', error: /json-not-trace\.json: not a Kineto trace \(no "traceEvents" array\)/ },
  { name: 'json-top-array', ext: '.json', make: bytes('[1, 2]'), at: 'open', error: /json-top-array\.json: not a report asys can read/ },
  {
    name: 'json-events-not-objects',
    ext: '.json',
    make: bytes('{"traceEvents": [1, 2]}'),
    at: 'open',
    error: /json-events-not-objects\.json: not a Kineto trace \(trace event 0 is not a JSON object\)/,
  },
  { name: 'json-cut-short', ext: '.json', make: bytes(KINETO.slice(0, 80)), at: 'open', error: /json-cut-short\.json: truncated JSON: the text ends at byte 80/ },
  { name: 'json-syntax', ext: '.json', make: bytes('{"traceEvents": [{,}]}'), at: 'open', error: /json-syntax\.json: invalid JSON at byte \d+/ },
  // --- tables and columns
  {
    name: 'missing-kernels',
    make: sqlite('kernels.sql', 'DROP TABLE HGGC_KERNEL'),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /HGGC_KERNEL/,
  },
  {
    name: 'missing-stringids',
    make: sqlite('names_by_text.sql', 'DROP TABLE StringIds'),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /StringIds/,
  },
  {
    name: 'missing-column',
    make: sqlite('kernels.sql', 'ALTER TABLE HGGC_KERNEL DROP COLUMN end'),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /table HGGC_KERNEL has no column end/,
  },
  {
    name: 'text-in-integer',
    make: sqlite('kernels.sql', "UPDATE HGGC_KERNEL SET start = 'soon' WHERE rowid = 3"),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /HGGC_KERNEL.*start.*row 3/,
  },
  {
    name: 'fraction-in-integer',
    make: sqlite('kernels.sql', 'UPDATE HGGC_KERNEL SET end = 2400.5 WHERE rowid = 1'),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /HGGC_KERNEL.*end.*row 1/,
  },
  {
    name: 'blob-name',
    make: sqlite('kernels.sql', "UPDATE StringIds SET value = X'00FF00' WHERE id = 10"),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /table StringIds, id 10: the value is a BLOB, not text/,
  },
  {
    name: 'blob-inline-text',
    make: sqlite('hgtx_ppu.sql', "UPDATE HGTX_EVENTS SET text = X'41FF' WHERE rowid = 4"),
    rule: 'hgtx_sum',
    at: 'rule',
    error: /table HGTX_EVENTS, column text, row 4: a BLOB of 2 bytes is not text/,
  },
  {
    name: 'null-start',
    make: sqlite('kernels.sql', 'UPDATE HGGC_KERNEL SET start = NULL WHERE rowid = 2'),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /HGGC_KERNEL.*start.*row 2/,
  },
  {
    name: 'dangling-name-id',
    make: sqlite('kernels.sql', 'UPDATE HGGC_KERNEL SET demangledName = 999 WHERE rowid = 2'),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /HGGC_KERNEL.*demangledName.*999/,
  },
  {
    name: 'negative-duration',
    make: sqlite('kernels.sql', 'UPDATE HGGC_KERNEL SET end = start - 100 WHERE rowid = 2'),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /table HGGC_KERNEL, row 2: end 2300 is before start 2400/,
  },
  {
    name: 'range-end-before-start',
    make: sqlite('hgtx_ppu.sql', 'UPDATE HGTX_EVENTS SET end = 500 WHERE rowid = 4'),
    rule: 'hgtx_kern_sum',
    at: 'rule',
    error: /table HGTX_EVENTS, row 4: end 500 is before start 1500/,
  },
  {
    name: 'api-end-before-start',
    make: sqlite('kernels.sql', 'UPDATE HGGC_API SET end = start - 1 WHERE rowid = 1'),
    rule: 'hggc_api_sum',
    at: 'rule',
    error: /table HGGC_API, row 1: end \d+ is before start \d+/,
  },
  {
    // Found by the asysrep_reader fuzzer: end - start overflowed int64 (UBSan).
    name: 'span-past-int64',
    make: sqlite('kernels.sql', 'UPDATE HGGC_KERNEL SET start = -9223372036854775000 WHERE rowid = 1'),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /span-past-int64\.asysrep: table HGGC_KERNEL, row 1: start -9223372036854775000 is further than 2\^62 ns \(146 years\) from the clock's zero/,
  },
  {
    // Found by the asysrep_reader fuzzer: durations that each fit added up past int64 (UBSan).
    name: 'durations-sum-past-int64',
    make: sqlite('kernels.sql', 'UPDATE HGGC_KERNEL SET start = 0, end = 400000000000000000'),
    rule: 'hggc_ppu_kern_sum',
    at: 'rule',
    error: /durations-sum-past-int64\.asysrep: table HGGC_KERNEL: the durations of rows 1 to 2 already add up to 800000000000000000 ns, more than the 2\^59 ns \(18 years\) one table may hold/,
  },
  // --- tolerated (docs/testing.md says why): the result, and a warning where one is due
  {
    name: 'null-device',
    make: sqlite('kernels.sql', 'UPDATE HGGC_KERNEL SET deviceId = NULL WHERE rowid = 2'),
    rule: 'hggc_ppu_kern_sum',
    at: 'ok',
    exit: 0,
    stdout: /^1,51\.3,2050,5,.*"void gemm<float, 128>/m,
    warning: /hggc_ppu_kern_sum: warning: HGGC_KERNEL: 1 row has a NULL deviceId, read as no device$/,
  },
  {
    name: 'dangling-correlation',
    make: sqlite('hgtx_ppu.sql', 'UPDATE HGGC_KERNEL SET correlationId = 999 WHERE rowid = 1'),
    rule: 'hgtx_kern_sum',
    at: 'ok',
    exit: 0,
    stdout: /^Row#,HGTX Range/,
    warning: /hgtx_kern_sum: warning: 2 kernels have no launching HGGC API call in their process/,
  },
  {
    name: 'release-without-allocation',
    make: sqlite('memory_usage.sql', 'DELETE FROM PPU_MEMORY_USAGE_EVENTS WHERE memoryOperationType NOT IN (0, 1)'),
    rule: 'device_memory_usage_summary',
    at: 'ok',
    exit: 0,
    stdout: /^Row#/,
    warning: /device_memory_usage_summary: warning: 4 releases match no unreleased allocation .*: 3 of an address never allocated, 1 of an address already released/,
  },
  {
    name: 'huge-name',
    make: sqlite('kernels.sql', `UPDATE StringIds SET value = ${as(1000000)} WHERE id = 10`),
    rule: 'hggc_ppu_kern_sum',
    at: 'ok',
    exit: 0,
    stdout: /^1,51\.3,2050,5,410,400,250,600,128,"a{1000000}",$/m,
  },
  {
    name: 'nul-in-name',
    make: sqlite('kernels.sql', "UPDATE StringIds SET value = 'gemm' || char(0) || 'tail' WHERE id = 10"),
    rule: 'hggc_ppu_kern_sum',
    at: 'ok',
    exit: 0,
    stdout: /^1,51\.3,2050,5,.*"gemm\u0000tail",$/m,
    warning: /hggc_ppu_kern_sum: warning: HGGC_KERNEL: the demangledName of 5 rows holds a NUL character \(StringIds id 10\): kept whole$/,
  },
  {
    name: 'non-utf8-name',
    make: sqlite('kernels.sql', "UPDATE StringIds SET value = CAST(X'67656D6DFF' AS TEXT) WHERE id = 10"),
    rule: 'hggc_ppu_kern_sum',
    at: 'ok',
    exit: 0,
    stdout: /^1,51\.3,2050,5,.*"gemm\uFFFD",$/mu,
    warning: /hggc_ppu_kern_sum: warning: HGGC_KERNEL: the demangledName of 5 rows is not UTF-8 \(StringIds id 10\): written as stored, shown with U\+FFFD in the viewer$/,
  },
  // --- catastrophic regexes
  {
    name: 'regex-range-include',
    make: sqlite('hgtx_ppu.sql', `UPDATE HGTX_EVENTS SET text = ${as(4999)} || '!' WHERE rowid = 8`),
    rule: 'hgtx_kern_sum:range-include=(a+)+$',
    at: 'rule',
    error: /range-include: regular expression '\(a\+\)\+\$' hit the match limit on a name of 5000 characters/,
  },
  {
    name: 'regex-pushpop-range',
    make: sqlite('stacks_hgtx.sql', `UPDATE HGTX_EVENTS SET text = ${as(3000)} || '!'`),
    rule: 'hgtx_pushpop_trace:range=(a|aa)+$',
    at: 'rule',
    error: /range: regular expression '\(a\|aa\)\+\$' hit the match limit on a name of 3001 characters/,
  },
  {
    name: 'regex-depth',
    make: sqlite('hgtx_ppu.sql', `UPDATE HGTX_EVENTS SET text = ${as(300000)} WHERE rowid = 8`),
    rule: 'hgtx_kern_sum:range-exclude=(a|b)*$',
    at: 'rule',
    error: /range-exclude: regular expression '\(a\|b\)\*\$' hit the depth limit on a name of 300000 characters/,
  },
  {
    name: 'regex-ppu-op-config',
    make: sqlite('ops_nested.sql', `UPDATE StringIds SET value = ${as(5000)} || '!' WHERE id IN (SELECT demangledName FROM HGGC_KERNEL)`),
    rule: 'ppu_op_sum',
    config: ['--ppu-op-config', 'GEMM=kernel:(a+)+$'],
    at: 'rule',
    error: /--ppu-op-config 'GEMM=kernel:\(a\+\)\+\$': regular expression '\(a\+\)\+\$' hit the match limit on a name of 5001 characters/,
  },
  {
    // Found by the ppu_op_config fuzzer: under the step bound of each search
    // (~4 million steps a name), but slow on every one of 400 names: the
    // regex's run bound ends it.
    name: 'regex-slow-on-every-name',
    make: sqlite(
      'ops_nested.sql',
      `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 400)
         INSERT INTO StringIds SELECT 100000 + i, ${as(100)} || i FROM k`,
      `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 400)
         INSERT INTO HGGC_KERNEL SELECT 20000 + i * 10, 20005 + i * 10, 0, 1, 7, 100000 + i, 1677721600,
           100000 + i, 100000 + i, 100000 + i, 1, 1, 1, 128, 1, 1, 32, 0, 0, NULL, NULL FROM k`,
    ),
    rule: 'ppu_op_sum',
    config: ['--ppu-op-config', 'T=kernel:a.*a.*a.*[b-z]'],
    at: 'rule',
    error: /--ppu-op-config 'T=kernel:a\.\*a\.\*a\.\*\[b-z\]': regular expression 'a\.\*a\.\*a\.\*\[b-z\]' took 5\d\.\d million steps on \d+ names \(\d\.\d million a name\), backtracking on every name/,
  },
  {
    name: 'regex-callstack-group',
    make: sqlite('memory_usage.sql', `UPDATE StringIds SET value = ${as(5000)} || '!'`),
    rule: 'device_memory_usage_summary',
    config: ['--callstack-group-config', 'g=(a+)+$'],
    at: 'rule',
    error: /--callstack-group-config 'g=\(a\+\)\+\$': group 'g', frame regex 1: regular expression '\(a\+\)\+\$' hit the match limit on a name of 5001 characters/,
  },
];

/** The entry's input file name. */
export const fileName = (entry) => entry.name + (entry.ext ?? '.asysrep');
/** The rule an entry runs (a file-level entry runs the kernel summary). */
export const ruleOf = (entry) => entry.rule ?? 'hggc_ppu_kern_sum';
