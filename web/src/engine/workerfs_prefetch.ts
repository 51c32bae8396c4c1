// Hooks Prefetchers (prefetch.ts) into WORKERFS: a read of a mounted File
// that has one is served by it, any other read by WORKERFS's own
// FileReaderSync call. Only where the page is cross-origin isolated.
import { Prefetcher } from './prefetch';

/** Files smaller than this are read by the engine's worker itself: a reader worker would not pay off. */
export const PREFETCH_MIN_SIZE = 64 << 20;

type ReaderSync = { readAsArrayBuffer(blob: Blob): ArrayBuffer };
type Read = (
  stream: { node: { contents: unknown } },
  buffer: Int8Array | Uint8Array,
  offset: number,
  length: number,
  position: number,
) => number;

export class WorkerfsPrefetch {
  private readonly byFile = new Map<Blob, Prefetcher>();

  private constructor(private readonly makeReader: () => ReaderSync) {}

  /** Wraps WORKERFS's read; null where a Prefetcher cannot work (no shared memory, no FileReaderSync). */
  static install(workerfs: unknown): WorkerfsPrefetch | null {
    const ReaderSync = (globalThis as { FileReaderSync?: new () => ReaderSync }).FileReaderSync;
    const ops = (workerfs as { stream_ops?: { read?: Read } } | undefined)?.stream_ops;
    if (!Prefetcher.available() || ReaderSync === undefined || typeof ops?.read !== 'function') return null;
    const prefetch = new WorkerfsPrefetch(() => new ReaderSync());
    const own = ops.read;
    ops.read = function (stream, buffer, offset, length, position) {
      const contents = stream.node.contents;
      const prefetcher = contents instanceof Blob ? prefetch.byFile.get(contents) : undefined;
      if (!prefetcher) return own.call(this, stream, buffer, offset, length, position);
      // A byte view of the same memory: Uint8 into Uint8 copies as memcpy.
      const bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
      return prefetcher.read(bytes, offset, length, position);
    };
    return prefetch;
  }

  /** Reads `file` ahead from now on (large files only); the returned handle stops it. */
  start(file: Blob): { stop(): void } {
    if (file.size < PREFETCH_MIN_SIZE) return { stop() {} };
    const prefetcher = new Prefetcher(file, this.makeReader());
    this.byFile.get(file)?.close();
    this.byFile.set(file, prefetcher);
    return {
      stop: () => {
        prefetcher.close();
        if (this.byFile.get(file) === prefetcher) this.byFile.delete(file);
      },
    };
  }
}
