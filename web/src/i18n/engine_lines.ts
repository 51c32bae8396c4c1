// The engine's one-line messages (errors and warnings) in Chinese.
//
// The engine writes them in English, as the CLI prints them: tests, scripts
// and bug reports match those bytes, so they stay the engine's. The viewer
// shows them under lang=zh through the templates below, the English line as
// the hover text (docs/i18n.md, "The engine's messages"). A line is the
// engine's prefixes (the command, the rule, the file, the table, row and
// column, the option) before one sentence; each prefix and the sentence are
// translated on their own, so a sentence reads the same whatever it is
// about. Names stay as the report and the CLI spell them (tables, columns,
// files, rules, options, regular expressions). A line no template knows is
// shown as the engine wrote it (`engineLineZh` answers null), so a new
// message is never hidden, only untranslated: tests/web/engine_lines.test.ts
// runs the malformed-input corpus through the CLI and fails on any of its
// lines left in English.
import { missingDataZh } from './decl';

type Sentence = [RegExp, (...groups: string[]) => string];

// Texts of the libraries the engine quotes after its own sentence: RapidJSON's
// parse errors (rapidjson/error/en.h), zlib's inflate messages. Others stay
// as the library wrote them.
const LIBRARY_ZH: Record<string, string> = {
  'The document is empty.': '文档为空。',
  'The document root must not be followed by other values.': '文档根之后不能再有其他值。',
  'Invalid value.': '无效的值。',
  'Missing a name for object member.': '对象成员缺少名称。',
  'Missing a colon after a name of object member.': '对象成员名称后缺少冒号。',
  "Missing a comma or '}' after an object member.": "对象成员后缺少逗号或 '}'。",
  "Missing a comma or ']' after an array element.": "数组元素后缺少逗号或 ']'。",
  'Incorrect hex digit after \\u escape in string.': '字符串中 \\u 转义后的十六进制数字不正确。',
  'The surrogate pair in string is invalid.': '字符串中的代理对无效。',
  'Invalid escape character in string.': '字符串中的转义字符无效。',
  'Missing a closing quotation mark in string.': '字符串缺少结束引号。',
  'Invalid encoding in string.': '字符串编码无效。',
  'Number too big to be stored in double.': '数字太大，无法存为 double。',
  'Miss fraction part in number.': '数字缺少小数部分。',
  'Miss exponent in number.': '数字缺少指数部分。',
  'Unspecific syntax error.': '未指明的语法错误。',
  'invalid block type': '无效的块类型',
  'invalid stored block lengths': '无效的存储块长度',
  'invalid distance too far back': '无效的距离（超出窗口）',
  'incorrect header check': '头部校验错误',
  'incorrect data check': '数据校验错误',
  'incorrect length check': '长度校验错误',
  'invalid code lengths set': '无效的码长集合',
  'invalid literal/lengths set': '无效的字面量/长度集合',
  'invalid distances set': '无效的距离集合',
  'unknown compression method': '未知的压缩方法',
};
const library = (text: string) => LIBRARY_ZH[text] ?? text;

const SENTENCES: Sentence[] = [
  // opening a file (core/report, core/import)
  [/^not a report asys can read \(asysrep, Nsight Systems SQLite export, PyTorch\/Kineto trace JSON\)$/,
    () => '不是 asys 能读取的报告（asysrep、Nsight Systems SQLite 导出文件、PyTorch/Kineto trace JSON）'],
  [/^truncated SQLite file \((\d+) of (\d+) bytes\)$/, (a, b) => `SQLite 文件不完整（只有 ${b} 字节中的 ${a} 字节）`],
  [/^truncated SQLite file \((\d+) bytes\)$/, (a) => `SQLite 文件不完整（${a} 字节）`],
  [/^asysrep format version (\d+) is newer than this build reads \((\d+)\)$/,
    (v, r) => `asysrep 格式版本 ${v} 比本程序能读取的版本（${r}）新`],
  [/^an Nsight Systems \.nsys-rep report; export it first with `(.+)`$/,
    (cmd) => `这是 Nsight Systems 的 .nsys-rep 报告，请先用 \`${cmd}\` 导出`],
  [/^META_DATA captureStart '(.*)' is not a time in nanoseconds$/,
    (v) => `META_DATA 的 captureStart '${v}' 不是以纳秒为单位的时间`],
  [/^corrupt gzip data \((.+)\)$/, (d) => `gzip 数据损坏（${library(d)}）`],
  [/^truncated gzip file \(the compressed data ends before the end of the gzip stream\)$/,
    () => 'gzip 文件不完整（压缩数据在 gzip 流结束之前就中断了）'],
  [/^not a Kineto trace \(no "traceEvents" array\)$/, () => '不是 Kineto trace（没有 "traceEvents" 数组）'],
  [/^not a Kineto trace \(trace event (\d+) is not a JSON object\)$/,
    (n) => `不是 Kineto trace（第 ${n} 个 trace event 不是 JSON 对象）`],
  [/^truncated JSON: the text ends at byte (\d+) \((.+)\)$/,
    (n, d) => `JSON 不完整：文本在第 ${n} 字节处结束（${library(d)}）`],
  [/^invalid JSON at byte (\d+): (.+)$/, (n, d) => `第 ${n} 字节处的 JSON 无效：${library(d)}`],
  [/^a string of (\d+) bytes is longer than a report's text may be \((\d+) bytes\)$/,
    (n, max) => `${n} 字节的字符串超过了报告中文本的长度上限（${max} 字节）`],
  // reading a table's cells (core/report)
  [/^(\S+) does not contain (.+) \(table (.+), collected with (.+)\)$/,
    (file, what, tables, option) => {
      const zh = missingDataZh(what, tables, option);
      return zh ? `${file} ${zh}` : '';
    }],
  [/^string id (\d+), but the report has no StringIds table$/, (id) => `字符串 id ${id}，但报告中没有 StringIds 表`],
  [/^table (\w+) has no column (\w+)$/, (t, c) => `表 ${t} 没有 ${c} 列`],
  [/^'(.*)' is not an integer$/, (v) => `'${v}' 不是整数`],
  [/^the value is a BLOB, not text$/, () => '值是 BLOB，不是文本'],
  [/^a BLOB of (\d+) bytes? is not text$/, (n) => `${n} 字节的 BLOB 不是文本`],
  [/^NULL where a value is required$/, () => '此处必须有值，却是 NULL'],
  [/^string id (\d+) is not in StringIds$/, (id) => `字符串 id ${id} 不在 StringIds 中`],
  [/^end (-?\d+) is before start (-?\d+)$/, (e, s) => `结束时间 ${e} 早于开始时间 ${s}`],
  [/^start (-?\d+) is further than 2\^62 ns \(146 years\) from the clock's zero$/,
    (s) => `开始时间 ${s} 距时钟零点超过 2^62 ns（146 年）`],
  [/^the durations of rows (\d+) to (\d+) already add up to (\d+) ns, more than the 2\^59 ns \(18 years\) one table may hold$/,
    (a, b, n) => `第 ${a} 至 ${b} 行的时长之和已达 ${n} ns，超过一张表可容纳的 2^59 ns（18 年）`],
  // warnings (a report read with what it lacks)
  [/^(\d+) rows? (?:has|have) a NULL (\w+), read as no device$/,
    (n, col) => `${n} 行的 ${col} 为 NULL，按无设备处理`],
  [/^(\d+) kernels? (?:has|have) no launching HGGC API call in (?:its|their) process \(no HGGC_API row with (?:its|their) correlation id\), so no HGTX range is associated with (?:it|them)$/,
    (n) => `${n} 个 kernel 在其进程中没有发起它的 HGGC API 调用（HGGC_API 中没有相同 correlation id 的行），因此没有与之关联的 HGTX range`],
  [/^(\d+) releases? match(?:es)? no unreleased allocation of the same address in the same process and device: (\d+) of an address never allocated, (\d+) of an address already released \(a second release\); (?:they count|it counts) in no total$/,
    (n, never, twice) =>
      `${n} 次释放在同一进程和设备中找不到同一地址的未释放分配：${never} 次释放的地址从未分配，${twice} 次释放的地址已经释放过（重复释放）；它们不计入任何总计`],
  [/^the (\w+) of (\d+) rows? holds? a NUL character \(StringIds id (\d+)\): kept whole$/,
    (col, n, id) => `${n} 行的 ${col} 含有 NUL 字符（StringIds id ${id}）：按原样完整保留`],
  [/^the (\w+) of (\d+) rows? (?:is|are) not UTF-8 \(StringIds id (\d+)\): written as stored, shown with U\+FFFD in the viewer$/,
    (col, n, id) => `${n} 行的 ${col} 不是 UTF-8（StringIds id ${id}）：按存储的原样写出，查看器中以 U+FFFD 显示`],
  // regular expressions (core/base/regex)
  [/^regular expression '(.*)' hit the (match|depth) limit on a name of (\d+) characters$/,
    (re, kind, n) => `正则表达式 '${re}' 在一个 ${n} 个字符的名称上达到了${kind === 'match' ? '匹配' : '递归深度'}上限`],
  [/^regular expression '(.*)' took ([\d.]+) million steps on (\d+) names? \(([\d.]+) million a name\), backtracking on every name: write it with fewer repeats such as '\.\*'$/,
    (re, steps, n, each) =>
      `正则表达式 '${re}' 在 ${n} 个名称上执行了 ${steps} 百万步（每个名称 ${each} 百万步），对每个名称都在回溯：请减少重复，例如用 '.*'`],
  [/^invalid regular expression '(.*)' at position (\d+): (.+)$/,
    (re, at, why) => `正则表达式 '${re}' 在位置 ${at} 处无效：${why}`],
  // options (core/rules)
  [/^expected (\S+) with an integer$/, (form) => `应为 ${form}，取整数`],
  [/^expected (\S+), non-negative integers separated by '\/'$/, (form) => `应为 ${form}，用 '/' 分隔的非负整数`],
  [/^unknown option \(options: (.+)\)$/, (list) => `未知选项（可用选项：${list}）`],
  [/^expected START\/END in nanoseconds from the capture start, got '(.*)'$/,
    (v) => `应为 START/END（从采集开始算起的纳秒数），实际为 '${v}'`],
  // the timeline's rows of kernels grouped (core/timeline/kernel_groups.cc, kernel_range_groups.cc)
  [/^([^:]+) has (\d+) kernels, more than the (\d+) whose rows by (base name|HGTX range) fit in memory beside the timeline$/,
    (row, n, max, by) =>
      `${row} 有 ${n} 个 kernel，超过按${by === 'base name' ? '基础名称' : ' HGTX range '}分组的行在时间线旁的内存中能容纳的 ${max} 个`],
  [/^no kernel rows by HGTX range: (\d+) PPU activities are more than the (\d+) whose association fits in memory beside the timeline; hgtx_kern_trace lists each kernel's ranges$/,
    (n, max) =>
      `无法按 HGTX range 分组 kernel 行：${n} 个 PPU 活动超过了其关联在时间线旁的内存中能容纳的 ${max} 个；hgtx_kern_trace 列出每个 kernel 的 range`],
  [/^No HGTX projection rows: (\d+) PPU activities are more than the (\d+) whose association fits in memory beside the timeline; hgtx_ppu_proj_trace lists the same projections$/,
    (n, max) =>
      `没有 HGTX 投影行：${n} 个 PPU 活动超过了其关联在时间线旁的内存中能容纳的 ${max} 个；hgtx_ppu_proj_trace 列出同样的投影`],
  // the graph rows left out (core/timeline/graph_rows.cc)
  [/^no graph rows: more than (\d+) graph launches; hggc_ppu_trace lists each activity$/,
    (max) => `没有图行：图的启动超过 ${max} 次；hggc_ppu_trace 列出每个活动`],
  [/^no graph rows: more than (\d+) PPU activities ran from graphs; hggc_ppu_trace lists each activity$/,
    (max) => `没有图行：超过 ${max} 个 PPU 活动由图运行；hggc_ppu_trace 列出每个活动`],
  // memory (core/rules/memory_estimate.cc; web/src/engine/engine_api.ts)
  [/^out of memory: about (\S+ \S+) needed for the (\d+) rows of (.+?)( in the larger of the two reports)?, past the (\S+ \S+) this engine may use \(ASYS_MEMORY_BUDGET sets it\); refused before it started$/,
    (need, rows, tables, two, budget) =>
      `内存不足：${two ? '两份报告中较大一份的' : ''}${tables} 的 ${rows} 行约需 ${need}，超过本引擎可用的 ${budget}（由 ASYS_MEMORY_BUDGET 设定）；未开始即拒绝`],
  [/^Out of memory: opening (.+) needs more than the 2 GB a browser tab's engine can use; the command line has no such limit: (asys .+)$/,
    (file, cmd) => `内存不足：打开 ${file} 需要的内存超过浏览器标签页中引擎可用的 2 GB；命令行没有此限制：${cmd}`],
  [/^Out of memory: (\S+) on (.+) needs more than the 2 GB a browser tab's engine can use; the command line has no such limit: (asys .+)$/,
    (rule, file, cmd) =>
      `内存不足：在 ${file} 上运行 ${rule} 需要的内存超过浏览器标签页中引擎可用的 2 GB；命令行没有此限制：${cmd}`],
  [/^Out of memory: the timeline of (.+) needs more than the 2 GB a browser tab's engine can use; its events are in the trace rules on the command line: (asys .+)$/,
    (file, cmd) =>
      `内存不足：${file} 的时间线需要的内存超过浏览器标签页中引擎可用的 2 GB；其事件可在命令行的 trace 规则中查看：${cmd}`],
];

// The prefixes the engine puts before a sentence, outermost first.
const PREFIXES: Sentence[] = [
  [/^No device rows: /, () => '没有设备行：'],
  [/^No graph rows: /, () => '没有图行：'],
  [/^asys (stats|analyze|compare): /, (command) => `asys ${command}：`],
  [/^([a-z][a-z0-9_]*): warning: /, (rule) => `${rule}：警告：`],
  [/^table (\w+), column (\w+), row (\d+): /, (t, c, r) => `表 ${t}，${c} 列，第 ${r} 行：`],
  [/^table (\w+), row (\d+): /, (t, r) => `表 ${t}，第 ${r} 行：`],
  [/^table (\w+), id (\d+): /, (t, id) => `表 ${t}，id ${id}：`],
  [/^table (\w+): /, (t) => `表 ${t}：`],
  [/^option '([^']*)': /, (o) => `选项 '${o}'：`],
  [/^(--[a-z-]+ '[^']*'): /, (o) => `${o}：`],
  [/^group '([^']*)', frame regex (\d+): /, (g, n) => `分组 '${g}'，第 ${n} 个帧正则表达式：`],
  // a rule, a file, a table or an option named alone
  [/^([^\s:']+): /, (name) => `${name}：`],
];

function sentenceZh(text: string): string | null {
  for (const [pattern, zh] of SENTENCES) {
    const m = pattern.exec(text);
    if (m) return zh(...m.slice(1).map((g) => g ?? '')) || null;
  }
  return null;
}

/** The engine's line in Chinese, or null when no template knows it. */
export function engineLineZh(line: string): string | null {
  let rest = line;
  let head = '';
  for (;;) {
    const whole = sentenceZh(rest);
    if (whole !== null) return head + whole;
    const prefix = PREFIXES.map(([p, zh]) => [p.exec(rest), zh] as const).find(([m]) => m);
    if (!prefix) return null;
    const [m, zh] = prefix;
    head += zh(...m!.slice(1));
    rest = rest.slice(m![0].length);
  }
}

/** What the viewer shows of an engine line in the language: Chinese where known, else the line. */
export function engineLine(line: string, lang: 'en' | 'zh'): string {
  return lang === 'zh' ? (engineLineZh(line) ?? line) : line;
}
