// Messages between the UI thread (client.ts) and the engine worker (worker.ts).
// Coarse requests, each with an id; every response carries the id back.
import type { TimeWindow } from './engine_api';
import type { RawRuleResult } from './types';

export const PROTOCOL_VERSION = 3;

/** The global rule options: option name -> its entries (one per CLI occurrence). */
export type RuleConfig = Record<string, string[]>;

export type EngineRequest =
  | { type: 'init'; engineUrl: string }
  | { type: 'open'; files: File[] }
  | { type: 'openDemo'; url: string; fileName: string }
  | { type: 'listRules' }
  | { type: 'run'; rule: string; options: Record<string, string> }
  | { type: 'sort'; runId: number; column: number; descending: boolean }
  | { type: 'setTimeFilter'; filterTime: string; filterHgtx: string }
  | { type: 'setRuleConfig'; config: RuleConfig }
  | { type: 'checkRuleOption'; name: string; value: string }
  | { type: 'csv'; rule: string; options: Record<string, string> };

export type RequestMessage = EngineRequest & { id: number; version: number };

/** What the loaded engine module offers beyond the four basic calls. */
export interface EngineCapabilities {
  sortOrder: boolean;
  setTimeFilter: boolean;
  /** setRuleConfig and checkRuleOption: the global rule options (--callstack-group-config). */
  ruleConfig: boolean;
}

/** openReport's (openReports') parsed JSON plus the files' names and total size. */
export interface OpenResult {
  summary: unknown;
  /** The first file's name. */
  fileName: string;
  /** Every file's name, in the order opened. */
  fileNames: string[];
  /** All files together, in bytes. */
  fileSize: number;
  capabilities: EngineCapabilities;
}

export interface ResultByType {
  init: { ok: true };
  open: OpenResult;
  openDemo: OpenResult;
  listRules: unknown;
  run: RawRuleResult;
  sort: Uint32Array;
  setTimeFilter: { window: TimeWindow | null };
  setRuleConfig: { ok: true };
  /** "" when the value is valid, else the engine's one-line error. */
  checkRuleOption: string;
  csv: string;
}

export type ResponseMessage =
  | { id: number; kind: 'result'; result: unknown }
  | { id: number; kind: 'error'; error: string }
  | { id: number; kind: 'progress'; loaded: number; total: number };
