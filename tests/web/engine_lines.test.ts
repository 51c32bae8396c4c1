// The engine's messages under lang=zh (web/src/i18n/engine_lines.ts): every
// line the malformed-input corpus makes the CLI print reads in Chinese, with
// nothing of the English sentence left; a few lines worked out by hand
// check how the prefixes and the sentence compose.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { engineLine, engineLineZh } from '../../web/src/i18n/engine_lines';
import { CORPUS, fileName, ruleOf } from '../corpus/corpus.mjs';

const ASYS = fileURLToPath(new URL('../../build/native/asys', import.meta.url));

// What may stay in Latin letters in a Chinese line: the names the rule
// documentation keeps in English in its Chinese text, and lower-case names of
// the report's columns and of the command. Quoted text, file names, options
// with their values,
// upper-case and camel-case names (tables, columns, products) are taken out
// before the check.
const KEPT = new Set(['asys', 'stats', 'asysrep', 'kernel', 'trace', 'range', 'gzip', 'id', 'correlation', 'ns', 'double', 'end', 'start', 'text', 'event']);

function englishLeft(zh: string): string[] {
  const stripped = zh
    .replace(/'[^']*'|`[^`]*`|"[^"]*"/g, ' ')
    .replace(/--[a-z-]+(?: [a-z0-9_,]+)?/g, ' ')
    .split(/[\s，：；（）、。]+/)
    .filter((token) => !/[A-Z0-9_.\/+^-]/.test(token))
    .join(' ');
  return (stripped.match(/[a-z]{2,}/g) ?? []).filter((word) => !KEPT.has(word));
}

describe('engine lines in Chinese', () => {
  test('prefixes and sentence compose, names kept as the engine wrote them', () => {
    expect(engineLineZh('asys stats: hggc_ppu_kern_sum: text-in-integer.asysrep: table HGGC_KERNEL, column start, row 3: \'soon\' is not an integer')).toBe(
      "asys stats：hggc_ppu_kern_sum：text-in-integer.asysrep：表 HGGC_KERNEL，start 列，第 3 行：'soon' 不是整数",
    );
    expect(engineLineZh('hgtx_kern_sum: warning: 1 kernel has no launching HGGC API call in its process (no HGGC_API row with its correlation id), so no HGTX range is associated with it')).toBe(
      'hgtx_kern_sum：警告：1 个 kernel 在其进程中没有发起它的 HGGC API 调用（HGGC_API 中没有相同 correlation id 的行），因此没有与之关联的 HGTX range',
    );
    expect(engineLineZh('b.json.gz: a string of 3221225472 bytes is longer than a report\'s text may be (1000000000 bytes)')).toBe(
      'b.json.gz：3221225472 字节的字符串超过了报告中文本的长度上限（1000000000 字节）',
    );
    expect(engineLineZh("ppu_op_sum: --ppu-op-config 'T=kernel:a.*[b-z]': regular expression 'a.*[b-z]' took 50.8 million steps on 13 names (3.9 million a name), backtracking on every name: write it with fewer repeats such as '.*'")).toBe(
      "ppu_op_sum：--ppu-op-config 'T=kernel:a.*[b-z]'：正则表达式 'a.*[b-z]' 在 13 个名称上执行了 50.8 百万步（每个名称 3.9 百万步），对每个名称都在回溯：请减少重复，例如用 '.*'",
    );
    expect(engineLineZh('a.json: invalid JSON at byte 18: Missing a name for object member.')).toBe('a.json：第 18 字节处的 JSON 无效：对象成员缺少名称。');
    expect(engineLineZh('hggc_ppu_kern_sum: r.asysrep does not contain HGGC kernel data (table HGGC_KERNEL, collected with --trace hggc)')).toBe(
      'hggc_ppu_kern_sum：r.asysrep 不包含HGGC kernel 数据（表 HGGC_KERNEL，采集选项 --trace hggc）',
    );
  });

  test('the memory lines: the engine\'s refusal and the viewer\'s out-of-memory lines', () => {
    expect(engineLineZh('hgtx_kern_sum: out of memory: about 2.9 GB needed for the 30360605 rows of HGGC_API, HGGC_KERNEL, HGTX_EVENTS, past the 1.9 GB this engine may use (ASYS_MEMORY_BUDGET sets it); refused before it started')).toBe(
      'hgtx_kern_sum：内存不足：HGGC_API, HGGC_KERNEL, HGTX_EVENTS 的 30360605 行约需 2.9 GB，超过本引擎可用的 1.9 GB（由 ASYS_MEMORY_BUDGET 设定）；未开始即拒绝',
    );
    expect(engineLineZh('ppu_operator_summary_compare: out of memory: about 2.4 GB needed for the 15000000 rows of HGGC_KERNEL, HGGC_MEMCPY in the larger of the two reports, past the 2.0 GB this engine may use (ASYS_MEMORY_BUDGET sets it); refused before it started')).toBe(
      'ppu_operator_summary_compare：内存不足：两份报告中较大一份的HGGC_KERNEL, HGGC_MEMCPY 的 15000000 行约需 2.4 GB，超过本引擎可用的 2.0 GB（由 ASYS_MEMORY_BUDGET 设定）；未开始即拒绝',
    );
    expect(engineLineZh("Out of memory: hggc_ppu_trace on big.asysrep needs more than the 2 GB a browser tab's engine can use; the command line has no such limit: asys stats -r hggc_ppu_trace big.asysrep")).toBe(
      '内存不足：在 big.asysrep 上运行 hggc_ppu_trace 需要的内存超过浏览器标签页中引擎可用的 2 GB；命令行没有此限制：asys stats -r hggc_ppu_trace big.asysrep',
    );
  });

  test('the timeline\'s refusals of kernel rows grouped by base name or HGTX range', () => {
    expect(engineLineZh('timeline: PPU 0 (PPU-ZW810E) Stream 7 has 2500000 kernels, more than the 2000000 whose rows by base name fit in memory beside the timeline')).toBe(
      'timeline：PPU 0 (PPU-ZW810E) Stream 7 有 2500000 个 kernel，超过按基础名称分组的行在时间线旁的内存中能容纳的 2000000 个',
    );
    expect(engineLineZh('timeline: PPU 1 Stream 3 has 2000001 kernels, more than the 2000000 whose rows by HGTX range fit in memory beside the timeline')).toBe(
      'timeline：PPU 1 Stream 3 有 2000001 个 kernel，超过按 HGTX range 分组的行在时间线旁的内存中能容纳的 2000000 个',
    );
    expect(engineLineZh("timeline: no kernel rows by HGTX range: 9840004 PPU activities are more than the 2000000 whose association fits in memory beside the timeline; hgtx_kern_trace lists each kernel's ranges")).toBe(
      'timeline：无法按 HGTX range 分组 kernel 行：9840004 个 PPU 活动超过了其关联在时间线旁的内存中能容纳的 2000000 个；hgtx_kern_trace 列出每个 kernel 的 range',
    );
  });

  test('the timeline\'s notes: the projection left out, the device rows not made', () => {
    expect(engineLineZh('No HGTX projection rows: 9840004 PPU activities are more than the 2000000 whose association fits in memory beside the timeline; hgtx_ppu_proj_trace lists the same projections')).toBe(
      '没有 HGTX 投影行：9840004 个 PPU 活动超过了其关联在时间线旁的内存中能容纳的 2000000 个；hgtx_ppu_proj_trace 列出同样的投影',
    );
    expect(engineLineZh("No device rows: Out of memory: the timeline of big.asysrep needs more than the 2 GB a browser tab's engine can use; its events are in the trace rules on the command line: asys stats -r hggc_ppu_trace big.asysrep")).toBe(
      '没有设备行：内存不足：big.asysrep 的时间线需要的内存超过浏览器标签页中引擎可用的 2 GB；其事件可在命令行的 trace 规则中查看：asys stats -r hggc_ppu_trace big.asysrep',
    );
  });

  test('the timeline\'s notes: the graph rows left out', () => {
    expect(engineLineZh('timeline: no graph rows: more than 1000000 graph launches; hggc_ppu_trace lists each activity')).toBe(
      'timeline：没有图行：图的启动超过 1000000 次；hggc_ppu_trace 列出每个活动',
    );
    expect(engineLineZh('timeline: no graph rows: more than 16000000 PPU activities ran from graphs; hggc_ppu_trace lists each activity')).toBe(
      'timeline：没有图行：超过 16000000 个 PPU 活动由图运行；hggc_ppu_trace 列出每个活动',
    );
    expect(engineLineZh("No graph rows: Out of memory: the timeline of big.asysrep needs more than the 2 GB a browser tab's engine can use; its events are in the trace rules on the command line: asys stats -r hggc_ppu_trace big.asysrep")).toBe(
      '没有图行：内存不足：big.asysrep 的时间线需要的内存超过浏览器标签页中引擎可用的 2 GB；其事件可在命令行的 trace 规则中查看：asys stats -r hggc_ppu_trace big.asysrep',
    );
  });

  test('a line no template knows is shown as written, and English stays English', () => {
    expect(engineLineZh('something new went wrong')).toBeNull();
    expect(engineLine('something new went wrong', 'zh')).toBe('something new went wrong');
    expect(engineLine("x.json: invalid JSON at byte 1: Invalid value.", 'en')).toBe('x.json: invalid JSON at byte 1: Invalid value.');
  });

  test('the check itself sees English', () => {
    expect(englishLeft('表 HGGC_KERNEL：the value is missing')).toEqual(['the', 'value', 'is', 'missing']);
    expect(englishLeft("表 HGGC_KERNEL，start 列：'soon' 不是整数")).toEqual([]);
  });
});

describe('every line of the malformed-input corpus reads in Chinese', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'asys-engine-lines-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // Two inputs take the CLI seconds (a 3 GiB inflate, a regular expression
  // timed on purpose): their lines are worked out by hand above instead.
  const slow = new Set(['gzip-bomb-name', 'regex-slow-on-every-name']);
  for (const entry of CORPUS.filter((e) => (e.at !== 'ok' || e.warning) && !slow.has(e.name))) {
    test(entry.name, () => {
      expect(existsSync(ASYS), `${ASYS}: build the CLI first (scripts/build.sh)`).toBe(true);
      const file = path.join(dir, fileName(entry));
      entry.make(file);
      const run = spawnSync(ASYS, ['stats', '-r', ruleOf(entry), ...(entry.config ?? []), file], { encoding: 'utf8', timeout: 30_000 });
      const line = run.stderr.trim().split('\n')[0].replaceAll(dir + path.sep, '');
      expect(line).not.toBe('');
      const zh = engineLineZh(line);
      expect(zh, line).not.toBeNull();
      expect(englishLeft(zh!), `${line}\n${zh}`).toEqual([]);
    }, 60_000);
  }
});
