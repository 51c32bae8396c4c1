import { describe, expect, it } from 'vitest';
import { rulesFrom } from './wire_rules';
import { changedSettings, decodeLink, emptyLink, encodeLink, type LinkState } from '../../web/src/lib/permalink';

const compareLink: LinkState = {
  view: 'compare',
  rule: 'ppu_kernel_summary_compare',
  settings: { 'matched-only': '1', device: '0/1' },
  global: { 'ppu-op-config': ['GEMM=kernel:gemv', 'Pytorch=hgtx:aten'] },
  reports: [
    { file: 'demo-base.asysrep', alias: 'before & after', filterTime: '1000000/5000000', filterHgtx: '' },
    { file: 'rank0.json.gz (and 1 more)', alias: '', filterTime: '', filterHgtx: 'iter 5@Torch/0' },
  ],
  base: 0,
  target: 1,
  lang: 'zh',
  window: { report: 1, start: '9007199254740993', end: '9007199254741999' },
  events: { report: 1, track: 12 },
};

describe('permalink', () => {
  it('writes the state as a versioned fragment, written out by hand', () => {
    expect(encodeLink(compareLink)).toBe(
      'v=1&view=compare&rule=ppu_kernel_summary_compare&o.matched-only=1&o.device=0%2F1' +
        '&g.ppu-op-config=GEMM%3Dkernel%3Agemv&g.ppu-op-config=Pytorch%3Dhgtx%3Aaten' +
        '&report.0=demo-base.asysrep&alias.0=before%20%26%20after&time.0=1000000%2F5000000' +
        '&report.1=rank0.json.gz%20%28and%201%20more%29&hgtx.1=iter%205%40Torch%2F0' +
        '&base=0&target=1&lang=zh&window=1%3A9007199254740993%2F9007199254741999&events=1%3A12',
    );
  });

  it('reads back what it wrote, with or without the #', () => {
    const text = encodeLink(compareLink);
    expect(decodeLink(text)).toEqual({ state: compareLink, problems: [] });
    expect(decodeLink(`#${text}`)).toEqual({ state: compareLink, problems: [] });
    const plain: LinkState = { ...emptyLink(), rule: 'hggc_ppu_kern_sum', reports: [{ file: 'a.asysrep', alias: '', filterTime: '', filterHgtx: '' }], base: 0 };
    expect(encodeLink(plain)).toBe('v=1&view=stats&rule=hggc_ppu_kern_sum&report.0=a.asysrep&base=0');
    expect(decodeLink(encodeLink(plain))).toEqual({ state: plain, problems: [] });
  });

  it('keeps an empty setting and an emptied global option', () => {
    const s: LinkState = { ...emptyLink(), settings: { 'no-graph-mapping': '' }, global: { 'callstack-group-config': [] } };
    expect(encodeLink(s)).toBe('v=1&view=stats&o.no-graph-mapping=&g.callstack-group-config=');
    expect(decodeLink(encodeLink(s)).state).toEqual(s);
  });

  it('reads "+" as a space, as URLSearchParams does', () => {
    expect(decodeLink('v=1&report.0=a+b.asysrep&base=0').state?.reports[0].file).toBe('a b.asysrep');
  });

  it('is no link when the fragment is empty', () => {
    expect(decodeLink('')).toEqual({ state: null, problems: [] });
    expect(decodeLink('#')).toEqual({ state: null, problems: [] });
  });

  it('refuses another version and a link without one, saying so', () => {
    expect(decodeLink('v=2&view=stats')).toEqual({
      state: null,
      problems: ['The link is of version 2; this viewer reads version 1: nothing restored.'],
    });
    expect(decodeLink('view=stats&rule=x')).toEqual({
      state: null,
      problems: ['The link has no version (v=): nothing restored.'],
    });
  });

  it('restores what it can of a broken link and names the rest', () => {
    const { state, problems } = decodeLink(
      'v=1&view=flamegraph&rule=hgtx_sum&colour=red&report.3=b.asysrep&alias.1=lost&report.5=c.asysrep' +
        '&base=3&target=4&lang=fr&window=3:12&events=3:x&events=9:4',
    );
    expect(state).toEqual({
      ...emptyLink(),
      rule: 'hgtx_sum',
      // report.3 and report.5 become 0 and 1; report 1 has no file.
      reports: [
        { file: 'b.asysrep', alias: '', filterTime: '', filterHgtx: '' },
        { file: 'c.asysrep', alias: '', filterTime: '', filterHgtx: '' },
      ],
      base: 0,
    });
    expect(problems).toEqual([
      'view "flamegraph" is not one of stats, compare, timeline: the statistics view opens.',
      '"colour" is not part of a version 1 link: ignored.',
      'language "fr" is not one of en, zh: ignored.',
      'window "3:12" is not REPORT:START/END in ns: ignored.',
      'events "3:x" is not REPORT:ROW: ignored.',
      'report 1 has no file name (report.1=): its alias and range are ignored.',
      'target=4 names no report of the link: ignored.',
      'events=9 names no report of the link: ignored.',
    ]);
  });

  it('moves the Events view\'s report with the reports renumbered', () => {
    const { state, problems } = decodeLink('v=1&view=timeline&report.2=a.asysrep&report.7=b.asysrep&base=7&events=7:3');
    expect(problems).toEqual([]);
    expect(state?.base).toBe(1);
    expect(state?.events).toEqual({ report: 1, track: 3 });
  });

  it('drops a target equal to the base and a non-numeric index', () => {
    expect(decodeLink('v=1&report.0=a&base=0&target=0').problems).toEqual(['target is the base report: no compare target.']);
    expect(decodeLink('v=1&report.0=a&base=x').problems).toEqual(['base="x" is not a report number: ignored.']);
  });

  it('carries only the settings that differ from the defaults', () => {
    const [rule] = rulesFrom([
      {
        name: 'r',
        options: [
          { name: 'rows', kind: 'int', defaultValue: '-1', label: 'Rows' },
          { name: 'standalone', kind: 'flag', label: 'Standalone' },
          { name: 'no-graph-mapping', kind: 'flag', inverted: true, label: 'Graph mapping' },
          { name: 'range-mode', kind: 'choice', choices: ['active', 'full'], defaultValue: 'active', label: 'Mode' },
        ],
      },
    ]);
    expect(
      changedSettings(rule.options, { rows: '-1', standalone: '1', 'no-graph-mapping': '', 'range-mode': 'full', stray: 'x' }),
    ).toEqual({ standalone: '1', 'range-mode': 'full' });
  });
});
