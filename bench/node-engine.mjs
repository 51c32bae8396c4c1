// The WebAssembly engine under Node, as the bench scripts load it: the
// build in build/wasm, or ENGINE=DIR's asys_engine_node.{cjs,wasm} (another
// build, to measure two side by side). bench/wasm-run.mjs keeps its own
// ASYS_WASM_BINARY (a module file, not a folder) for bench/wasm-sbs.sh.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const engineDir = process.env.ENGINE ? path.resolve(process.env.ENGINE) : path.join(root, 'build/wasm');

export async function loadNodeEngine() {
  const createAsysEngine = createRequire(import.meta.url)(path.join(engineDir, 'asys_engine_node.cjs'));
  return createAsysEngine({ wasmBinary: fs.readFileSync(path.join(engineDir, 'asys_engine_node.wasm')) });
}

/** This process's CPU time so far (user + system), in ms. */
export function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
