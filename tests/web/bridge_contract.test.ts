// The bridge contract (docs/bridge-contract.md), from the viewer's side: a
// malformed engine answer is rejected with an error naming the field and the
// value (never normalised into something else), and the real engine's
// answers (build/wasm, built before the tests) pass the same validator.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WIRE_CELL_KINDS, WIRE_OPTION_KINDS } from '../../web/src/engine/bridge_schema.gen';
import { BridgeContractError, normalizeRules, normalizeSummary } from '../../web/src/engine/normalize';
import { wireColumn, wireOption, wireRule, wireSummary } from './wire_rules';

const contractError = (field: string, value: string, expected: string) =>
  `The engine's answer does not match the bridge contract: ${field} is ${value}, expected ${expected}`;

describe('a malformed answer is rejected, naming the field and the value', () => {
  it('a field the engine always writes, missing', () => {
    const rule = wireRule({ name: 'r' });
    delete rule.summaryRow;
    expect(() => normalizeRules([rule])).toThrow(contractError('rules[0].summaryRow', 'missing', 'a string'));
  });

  it('an option kind the C++ enum does not have', () => {
    const rules = [wireRule({ name: 'a' }), wireRule({ name: 'b', options: [wireOption({ name: 'x' }), wireOption({ name: 'rows', kind: 'Integer' })] })];
    expect(() => normalizeRules(rules)).toThrow(
      contractError('rules[1].options[1].kind', '"Integer"', `one of ${WIRE_OPTION_KINDS.join(', ')}`),
    );
    // The tolerant reader took a number as the enum's index; the contract sends names.
    expect(() => normalizeRules([wireRule({ name: 'a', columns: [wireColumn({ kind: 0 })] })])).toThrow(
      contractError('rules[0].columns[0].kind', '0', 'one of int, decimal1, text'),
    );
  });

  it('a value of the wrong type', () => {
    expect(() => normalizeRules([wireRule({ name: 'a', compare: 'yes' })])).toThrow(
      contractError('rules[0].compare', '"yes"', 'true or false'),
    );
    expect(() => normalizeRules([wireRule({ name: 'a', sumColumns: ['Total', 3] })])).toThrow(
      contractError('rules[0].sumColumns[1]', '3', 'a string'),
    );
    expect(() => normalizeRules({ rules: [] })).toThrow(contractError('rules', '{"rules":[]}', 'an array'));
    expect(() => normalizeRules([wireRule({ name: 'a', command: 'Stats' })])).toThrow(
      contractError('rules[0].command', '"Stats"', 'one of stats, analyze'),
    );
  });

  it('a rule not available without saying why, a compare rule without its share column', () => {
    expect(() => normalizeRules([wireRule({ name: 'a', available: false })])).toThrow(
      contractError('rules[0].missing', 'missing', 'a string'),
    );
    const compare = wireRule({ name: 'c', compare: true });
    delete compare.compareShare;
    expect(() => normalizeRules([compare])).toThrow(contractError('rules[0].compareShare', 'missing', 'a string'));
  });

  it('a malformed summary', () => {
    expect(() => normalizeSummary(wireSummary({ devices: [{ id: '0', name: 'PPU' }] }), 'f', 1)).toThrow(
      contractError('summary.devices[0].id', '"0"', 'a number'),
    );
    expect(() => normalizeSummary(wireSummary({ captureStart: '15000' }), 'f', 1)).toThrow(
      contractError('summary.captureStart', '"15000"', 'a number'),
    );
    // A number past 2^53 has lost its last digits already: only a BigInt carries epoch ns.
    expect(() => normalizeSummary(wireSummary({ captureStart: 1694128201424306000 }), 'f', 1)).toThrow(
      contractError('summary.captureStart', '1694128201424306000', 'a number'),
    );
    expect(normalizeSummary(wireSummary({ captureStart: 1694128201424306001n }), 'f', 1).captureStart).toBe(1694128201424306001n);
    expect(() =>
      normalizeSummary(wireSummary({ devices: [{ id: 0, name: 'PPU', cuCount: [80] }] }), 'f', 1),
    ).toThrow(contractError('summary.devices[0].cuCount', '[80]', 'a text, a number or null'));
    expect(() => normalizeSummary(wireSummary({ meta: [{ name: 'epochOffset' }] }), 'f', 1)).toThrow(
      contractError('summary.meta[0].value', 'missing', 'a string'),
    );
    const noThreads = wireSummary({});
    delete noThreads.threadCount;
    expect(() => normalizeSummary(noThreads, 'f', 1)).toThrow(contractError('summary.threadCount', 'missing', 'a number'));
    const noHost = wireSummary({});
    delete noHost.hostName;
    expect(() => normalizeSummary(noHost, 'f', 1)).toThrow(contractError('summary.hostName', 'missing', 'a string'));
  });

  it('is a BridgeContractError that keeps the field and the value', () => {
    try {
      normalizeRules([wireRule({ name: 'a', options: [wireOption({ kind: 'slider' })] })]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BridgeContractError);
      expect((e as BridgeContractError).field).toBe('rules[0].options[0].kind');
      expect((e as BridgeContractError).value).toBe('slider');
    }
  });
});

describe("the real engine's answers keep the contract", () => {
  const root = path.resolve(__dirname, '../..');
  const require = createRequire(import.meta.url);
  const engineFile = path.join(root, 'build/wasm/asys_engine_node.cjs');
  const demo = path.join(root, 'public/demo/demo-base.asysrep');

  it('listRules and open validate; together the rules use every option and cell kind the C++ enums name', async () => {
    expect(fs.existsSync(engineFile), `${engineFile} (build the WebAssembly engine first)`).toBe(true);
    expect(fs.existsSync(demo), `${demo} (scripts/build.sh makes it)`).toBe(true);
    const create = require(engineFile);
    const engine = await create({ wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/asys_engine_node.wasm')) });

    const bare = engine.listRules(0);
    expect(bare.ok).toBe(true);
    const rules = normalizeRules(bare.rules);
    expect(rules.length).toBeGreaterThan(30);

    const opened = engine.open([demo]);
    expect(opened.ok, opened.error).toBe(true);
    const summary = normalizeSummary(opened.summary, 'demo-base.asysrep', 1);
    expect(summary.tables).toContain('HGGC_KERNEL');
    const withReport = engine.listRules(opened.report);
    // With a report every rule says whether it has its data (the demo report has all of it).
    expect(withReport.rules.every((r: { available?: unknown }) => typeof r.available === 'boolean')).toBe(true);
    expect(normalizeRules(withReport.rules).map((r) => r.name)).toEqual(rules.map((r) => r.name));

    // Every wire name is used by some declaration: a kind the viewer lists but
    // the engine never sends (or the reverse, caught by the validator) shows.
    const raw = bare.rules as { options: { kind: string }[]; columns: { kind: string }[] }[];
    expect(new Set(raw.flatMap((r) => r.options.map((o) => o.kind)))).toEqual(new Set(WIRE_OPTION_KINDS));
    expect(new Set(raw.flatMap((r) => r.columns.map((c) => c.kind)))).toEqual(new Set(WIRE_CELL_KINDS));
    engine.close(opened.report);
  }, 60_000);
});
