// The viewer's dependencies run one way (docs/architecture.md, "The web app's
// layers"): every file of web/src is in one layer, imports only its own layer
// and the layers it may build on, and no files import each other in a circle.
// A small scanner over the import statements, no bundler: `import ... from`,
// `export ... from`, `import '...'` and `import('...')` with a literal path.
// `import type` counts like any import: a type that runs back up a layer is
// the same design knot as a value, and one edit away from pulling the module
// into a bundle that must not hold it (the page's must not hold the worker's).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../web/src');

type Layer = 'shapes' | 'worker' | 'client' | 'lib' | 'i18n' | 'state' | 'components' | 'views' | 'app';

/** The layers, lowest first; each may import its own and the ones it lists. */
const LAYERS: Record<Layer, Layer[]> = {
  /** The engine's data as both threads see it: types, messages, JSON -> types. */
  shapes: [],
  /**
   * The engine's Web Worker and what runs in it, its file reader worker too. Started by URL
   * (client.ts: new Worker(new URL('./worker.ts', import.meta.url))), which is no import:
   * the page never imports this layer, or its bundle would pull in the engine's file access.
   */
  worker: ['shapes'],
  /** The page's side of the engine: requests to the worker, promises back. */
  client: ['shapes'],
  /** Pure logic: no React, no state (download.ts is handed the client, it imports only its type). */
  lib: ['shapes', 'client'],
  /** The texts in both languages and the language provider. */
  i18n: ['shapes', 'client', 'lib'],
  /** Shared state: the providers and hooks. */
  state: ['shapes', 'client', 'lib', 'i18n'],
  /** One component per file: props in, elements out, state through its hooks. */
  components: ['shapes', 'client', 'lib', 'i18n', 'state'],
  /** The pages: statistics, compare, timeline. */
  views: ['shapes', 'client', 'lib', 'i18n', 'state', 'components'],
  /** The entry point, the providers' nesting and the view tabs. */
  app: ['shapes', 'client', 'lib', 'i18n', 'state', 'components', 'views'],
};

/** Layers whose files may import React (components, providers and hooks). */
const REACT_LAYERS: Layer[] = ['i18n', 'state', 'components', 'views', 'app'];

/** web/src/engine holds three layers. */
const ENGINE_FILES: Record<string, Layer> = {
  'engine/types.ts': 'shapes',
  'engine/bridge_schema.gen.ts': 'shapes',
  'engine/timeline_types.ts': 'shapes',
  'engine/protocol.ts': 'shapes',
  'engine/normalize.ts': 'shapes',
  'engine/client.ts': 'client',
  'engine/worker.ts': 'worker',
  'engine/engine_api.ts': 'worker',
  'engine/timeline_api.ts': 'worker',
  'engine/prefetch.ts': 'worker',
  'engine/prefetch_shared.ts': 'worker',
  'engine/prefetch_worker.ts': 'worker',
  'engine/workerfs_prefetch.ts': 'worker',
};

const DIRS: Record<string, Layer> = { lib: 'lib', i18n: 'i18n', state: 'state', components: 'components', views: 'views' };

/** A file's layer (its path from web/src, "/"-separated), or null if the table above does not place it. */
function layerOf(file: string): Layer | null {
  if (file === 'App.tsx' || file === 'main.tsx') return 'app';
  if (file.startsWith('engine/')) return ENGINE_FILES[file] ?? null;
  return DIRS[file.split('/')[0]] ?? null;
}

interface Import {
  specifier: string;
  line: number;
}

/** The module specifiers a source imports or re-exports, with their lines. */
function scanImports(source: string): Import[] {
  const found: Import[] = [];
  const patterns = [
    // import x from, import { a, b } from (over lines), import type, import * as, export { a } from, export * from
    /^[ \t]*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    // import './styles.css'
    /^[ \t]*import\s*['"]([^'"]+)['"]/gm,
    // import('./x') with a literal path (a computed one cannot be followed)
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) {
    for (const m of source.matchAll(re)) {
      const at = m.index + m[0].lastIndexOf(m[1]);
      found.push({ specifier: m[1], line: source.slice(0, at).split('\n').length });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

const rel = (p: string) => path.relative(SRC, p).split(path.sep).join('/');

/** The file a relative specifier names (as the bundler resolves it), or null. */
function resolve(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const p of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  return null;
}

interface Edge {
  from: string;
  to: string;
  line: number;
}

/** web/src's import graph: files (from web/src) -> the files they import, and the packages each imports. */
function importGraph() {
  const edges = new Map<string, Edge[]>();
  const packages: { file: string; name: string; line: number }[] = [];
  const unresolved: string[] = [];
  for (const abs of sourceFiles(SRC)) {
    const file = rel(abs);
    const out: Edge[] = [];
    for (const { specifier, line } of scanImports(readFileSync(abs, 'utf8'))) {
      if (!specifier.startsWith('.')) {
        packages.push({ file, name: specifier, line });
        continue;
      }
      const target = resolve(abs, specifier);
      if (target === null) unresolved.push(`${file}:${line}: '${specifier}' names no file`);
      else if (/\.tsx?$/.test(target)) out.push({ from: file, to: rel(target), line });
    }
    edges.set(file, out);
  }
  return { edges, packages, unresolved };
}

/** The circles among the files: one path per strongly connected component (Tarjan), "a -> b -> a". */
function cycles(edges: Map<string, Edge[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const { to } of edges.get(v) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(v, Math.min(low.get(v)!, index.get(to)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).some((e) => e.to === v)) components.push(component);
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);

  // Within a component every file reaches every other: a shortest way back to its first file is a circle to show.
  return components.map((component) => {
    const inside = new Set(component);
    const start = component.sort()[0];
    const cameFrom = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      for (const { to } of edges.get(queue[i]) ?? []) {
        if (!inside.has(to)) continue;
        if (to === start) {
          const way = [start];
          for (let at: string | undefined = queue[i]; at !== undefined && at !== start; at = cameFrom.get(at)) way.unshift(at);
          return [start, ...way].join(' -> ');
        }
        if (!cameFrom.has(to)) {
          cameFrom.set(to, queue[i]);
          queue.push(to);
        }
      }
    }
    return component.join(', ');
  });
}

describe('the import scanner', () => {
  it('finds every form of import and re-export, over lines, and leaves comments and strings alone', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      'import {',
      '  c,',
      '  type D,',
      "} from './cd';",
      "import * as e from 'e';",
      "import f, { g } from './fg';",
      "export { h } from './h';",
      "export type { I } from './i';",
      "export * from './j';",
      "import './k.css';",
      "const l = await import('./l');",
      "// import { m } from './m';",
      " * import n from './n'",
      "const o = 'see import p from q';",
      'export function from(x: string) { return x; }',
    ].join('\n');
    expect(scanImports(source)).toEqual([
      { specifier: './a', line: 1 },
      { specifier: '../b', line: 2 },
      { specifier: './cd', line: 6 },
      { specifier: 'e', line: 7 },
      { specifier: './fg', line: 8 },
      { specifier: './h', line: 9 },
      { specifier: './i', line: 10 },
      { specifier: './j', line: 11 },
      { specifier: './k.css', line: 12 },
      { specifier: './l', line: 13 },
    ]);
  });
});

describe('the cycle finder', () => {
  const graph = (pairs: [string, string][]) => {
    const edges = new Map<string, Edge[]>();
    for (const [from, to] of pairs) {
      edges.set(from, [...(edges.get(from) ?? []), { from, to, line: 1 }]);
      if (!edges.has(to)) edges.set(to, []);
    }
    return edges;
  };

  it('shows a circle through several files, and a file that imports itself', () => {
    const edges = graph([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'b'],
      ['a', 'e'],
      ['e', 'e'],
    ]);
    expect(cycles(edges)).toEqual(['b -> c -> d -> b', 'e -> e']);
  });

  it('finds none where the arrows run one way', () => {
    expect(cycles(graph([['a', 'b'], ['a', 'c'], ['b', 'c'], ['c', 'd']]))).toEqual([]);
  });
});

describe("web/src's layers", () => {
  const { edges, packages, unresolved } = importGraph();

  it('reads the sources and every relative import names a file', () => {
    expect(edges.size).toBeGreaterThan(50);
    expect([...edges.values()].flat().length).toBeGreaterThan(200);
    expect(unresolved).toEqual([]);
  });

  it('places every file in a layer', () => {
    expect([...edges.keys()].filter((f) => layerOf(f) === null)).toEqual([]);
  });

  it('has no import that runs back up or across to a layer it may not use', () => {
    const wrong: string[] = [];
    for (const list of edges.values()) {
      for (const { from, to, line } of list) {
        const a = layerOf(from);
        const b = layerOf(to);
        if (a === null || b === null || a === b || LAYERS[a].includes(b)) continue;
        wrong.push(`${from}:${line} (${a}) imports ${to} (${b}); ${a} may import ${[...LAYERS[a], a].join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('imports React only in the layers of providers, hooks and components', () => {
    const wrong = packages
      .filter(({ file, name }) => /^react(-dom)?(\/|$)/.test(name) && !REACT_LAYERS.includes(layerOf(file)!))
      .map(({ file, name, line }) => `${file}:${line} (${layerOf(file)}) imports ${name}`);
    expect(wrong).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(edges)).toEqual([]);
  });
});
