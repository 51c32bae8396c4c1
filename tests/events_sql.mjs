// The Events view's rows worked out independently, by SQL over the report
// file (the sqlite3 shell), for the Node and end-to-end tests alike: what a
// timeline row lists, from the tables, not from the engine.
import { spawnSync } from 'node:child_process';
import { parseCsv } from './csv.mjs';

/** The rows of `query` on `file` as arrays of texts (sqlite3 -csv, no header); throws on a failure. */
export function sqlRows(file, query) {
  const r = spawnSync('sqlite3', ['-csv', file, query], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`sqlite3: ${r.stderr || r.error}`);
  return parseCsv(r.stdout);
}

const NAME = (id) => `(SELECT value FROM StringIds WHERE id = ${id})`;
// A PCCL kernel (the classifier's rule: its short name, else its demangled
// name without "void ", starts with pcclKernel, ncclKernel or
// ncclDevKernel) is on its PPU's PCCL row, not its stream's.
const CLASSIFIED = `COALESCE(${NAME('k.shortName')}, CASE WHEN ${NAME('k.demangledName')} GLOB 'void *' THEN substr(${NAME('k.demangledName')}, 6) ELSE ${NAME('k.demangledName')} END)`;
const NOT_PCCL = `NOT (${CLASSIFIED} GLOB 'pcclKernel*' OR ${CLASSIFIED} GLOB 'ncclKernel*' OR ${CLASSIFIED} GLOB 'ncclDevKernel*')`;
// "Memcpy HtoD (device)": the copy kind's label's first letters, the destination kind in lower case.
const COPY = `(SELECT label FROM ENUM_HGGC_MEMCPY_OPER WHERE id = m.copyKind)`;
const MEMKIND = (c) => `(SELECT label FROM ENUM_HGGC_MEM_KIND WHERE id = ${c})`;
const MEMCPY_NAME = `'Memcpy ' || substr(${COPY}, 1, 1) || 'to' || substr(${COPY}, instr(${COPY}, '-to-') + 4, 1) || ' (' || lower(${MEMKIND('m.dstKind')}) || ')'`;

// A column the report may leave NULL (a Kineto import has no dynamic shared memory): "-", as every table writes a missing cell.
const OR_DASH = (c) => `IFNULL(${c}, '-')`;

/** The columns of a stream's Events view, as headers. */
export const STREAM_HEADERS = ['Name', 'Start (ns)', 'Duration (ns)', 'CorrId', 'GrdX', 'GrdY', 'GrdZ', 'BlkX', 'BlkY', 'BlkZ', 'Reg/Trd',
  'StcSMem (bytes)', 'DymSMem (bytes)', 'Bytes (bytes)', 'Throughput (B/s)', 'SrcMemKd', 'DstMemKd'];

/**
 * A stream's events as its Events view lists them (STREAM_HEADERS, "-"
 * where a cell does not apply), in start order (ties: end): its kernels
 * (demangled names, not its PCCL kernels), memcpys and memsets; `context`
 * null for a PPU of one context; `window` [from, to) absolute ns keeps the
 * events overlapping it.
 */
export function streamRows(file, device, context, stream, window = null) {
  const place = (t) => `${t}.deviceId = ${device} AND ${t}.streamId = ${stream}${context === null ? '' : ` AND ${t}.contextId = ${context}`}`;
  const inWindow = (t) => (window ? ` AND ${t}.start < ${window[1]} AND ${t}.end > ${window[0]}` : '');
  const throughput = (t) => `CASE WHEN ${t}.end > ${t}.start THEN ${t}.bytes * (1000000000 / (${t}.end - ${t}.start)) ELSE '-' END`;
  return sqlRows(file, `
    SELECT name, start, dur, corr, gx, gy, gz, bx, by, bz, regs, ssm, dsm, bytes, tput, src, dst FROM (
      SELECT ${NAME('k.demangledName')} AS name, k.start, k.end, k.end - k.start AS dur, ${OR_DASH('k.correlationId')} AS corr,
             ${OR_DASH('k.gridX')} AS gx, ${OR_DASH('k.gridY')} AS gy, ${OR_DASH('k.gridZ')} AS gz,
             ${OR_DASH('k.blockX')} AS bx, ${OR_DASH('k.blockY')} AS by, ${OR_DASH('k.blockZ')} AS bz,
             ${OR_DASH('k.registersPerThread')} AS regs, ${OR_DASH('k.staticSharedMemory')} AS ssm, ${OR_DASH('k.dynamicSharedMemory')} AS dsm,
             '-' AS bytes, '-' AS tput, '-' AS src, '-' AS dst
        FROM HGGC_KERNEL k WHERE ${place('k')} AND ${NOT_PCCL}${inWindow('k')}
      UNION ALL
      SELECT ${MEMCPY_NAME}, m.start, m.end, m.end - m.start, ${OR_DASH('m.correlationId')}, '-', '-', '-', '-', '-', '-', '-', '-', '-',
             m.bytes, ${throughput('m')}, ${MEMKIND('m.srcKind')}, ${MEMKIND('m.dstKind')}
        FROM HGGC_MEMCPY m WHERE ${place('m')}${inWindow('m')}
      UNION ALL
      SELECT 'Memset', s.start, s.end, s.end - s.start, ${OR_DASH('s.correlationId')}, '-', '-', '-', '-', '-', '-', '-', '-', '-',
             s.bytes, ${throughput('s')}, ${MEMKIND('s.memKind')}, '-'
        FROM HGGC_MEMSET s WHERE ${place('s')}${inWindow('s')}
    ) ORDER BY start, end`);
}

/** A thread's HGGC API calls as its Events view lists them: Name, Start, Duration, CorrId, Return Value, in start order. */
export function apiRows(file, globalTid) {
  return sqlRows(file, `SELECT ${NAME('a.nameId')}, a.start, a.end - a.start, ${OR_DASH('a.correlationId')}, ${OR_DASH('a.returnValue')}
                        FROM HGGC_API a WHERE a.globalTid = ${globalTid} ORDER BY a.start, a.end`);
}

/** Where a stream row of the timeline is: its PPU, context (null: its PPU has one) and stream, from its group, context and label. */
export function streamPlace(track) {
  const device = /^PPU (\d+)/.exec(track.group);
  const stream = /^Stream (\d+)/.exec(track.label);
  if (!device || !stream) return null;
  const context = track.context ? /(\d+)$/.exec(track.context) : null;
  return { device: Number(device[1]), stream: Number(stream[1]), context: context ? Number(context[1]) : null };
}
