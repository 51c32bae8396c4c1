# The "split" optimisation of the WebAssembly engine (issue 24, target 2;
# measured and not taken, bench/README.md 2026-12-06 simd8): Binaryen's -O3
# function passes over every function but SQLite's, through Debian's
# libbinaryen (version 108, its C API by ctypes: the wasm-opt command line
# has no way to leave some functions alone). Module-level passes
# (inlining among them) are not run: BinaryenFunctionOptimize runs one
# function's passes.
# Steps (from build/wasm, after a build):
#   1. link the Node module again with --profiling-funcs (names kept), as
#      build.ninja's asys_engine_node.cjs line with that flag added;
#   2. wasm-opt -g IN.wasm --enable-exception-handling --enable-sign-ext
#      --enable-mutable-globals --enable-bulk-memory --emit-target-features
#      -o tf.wasm (so the C API reads it with its features);
#   3. llvm-nm --defined-only libasys_sqlite.a | awk '$2 ~ /^[tTwW]$/
#      {print $3}' | sort -u > sqlite-funcs.txt (SQLite's functions, its
#      static ones too);
#   4. python3 bench/wasm-split-opt.py tf.wasm OUT/asys_engine_node.wasm
#      sqlite-funcs.txt [all], and the step-1 glue (.cjs) copied beside it;
#      "all" optimises SQLite's functions too.
# Then bench/wasm-sbs.sh with the variant OUT.
import ctypes, sys
b = ctypes.CDLL('/usr/lib/x86_64-linux-gnu/libbinaryen.so')
src, dst, skiplist = sys.argv[1:4]
everything = len(sys.argv) > 4
skip = set(open(skiplist).read().split())
data = open(src, 'rb').read()
b.BinaryenModuleRead.restype = ctypes.c_void_p
b.BinaryenModuleRead.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
m = b.BinaryenModuleRead(data, len(data))
for f in ('BinaryenFeatureMutableGlobals', 'BinaryenFeatureSignExt', 'BinaryenFeatureExceptionHandling', 'BinaryenFeatureBulkMemory'):
    getattr(b, f).restype = ctypes.c_uint32
feat = b.BinaryenFeatureMutableGlobals() | b.BinaryenFeatureSignExt() | b.BinaryenFeatureExceptionHandling() | b.BinaryenFeatureBulkMemory()
b.BinaryenModuleGetFeatures.restype = ctypes.c_uint32
b.BinaryenModuleGetFeatures.argtypes = [ctypes.c_void_p]
print('features read', b.BinaryenModuleGetFeatures(m), 'set', feat)
b.BinaryenModuleSetFeatures.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
b.BinaryenModuleSetFeatures(m, feat | b.BinaryenModuleGetFeatures(m))
b.BinaryenSetOptimizeLevel(3); b.BinaryenSetShrinkLevel(0)
b.BinaryenGetNumFunctions.argtypes = [ctypes.c_void_p]
b.BinaryenGetFunctionByIndex.restype = ctypes.c_void_p
b.BinaryenGetFunctionByIndex.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
b.BinaryenFunctionGetName.restype = ctypes.c_char_p
b.BinaryenFunctionGetName.argtypes = [ctypes.c_void_p]
b.BinaryenFunctionImportGetModule.restype = ctypes.c_char_p
b.BinaryenFunctionImportGetModule.argtypes = [ctypes.c_void_p]
b.BinaryenFunctionOptimize.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
n = b.BinaryenGetNumFunctions(m); done = skipped = 0
for i in range(n):
    fn = b.BinaryenGetFunctionByIndex(m, i)
    name = b.BinaryenFunctionGetName(fn).decode()
    if b.BinaryenFunctionImportGetModule(fn):
        continue
    if not everything and name in skip:
        skipped += 1; continue
    b.BinaryenFunctionOptimize(fn, m); done += 1
print('functions', n, 'optimised', done, 'skipped (SQLite)', skipped)
b.BinaryenModuleValidate.argtypes = [ctypes.c_void_p]
assert b.BinaryenModuleValidate(m), 'invalid module'
class Result(ctypes.Structure):
    _fields_ = [('binary', ctypes.c_void_p), ('binaryBytes', ctypes.c_size_t), ('sourceMap', ctypes.c_char_p)]
b.BinaryenModuleAllocateAndWrite.restype = Result
b.BinaryenModuleAllocateAndWrite.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
r = b.BinaryenModuleAllocateAndWrite(m, None)
open(dst, 'wb').write(ctypes.string_at(r.binary, r.binaryBytes))
print('wrote', dst, r.binaryBytes, 'bytes from', len(data))
