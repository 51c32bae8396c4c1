// The viewer's Content-Security-Policy, one text for both places it is set:
// the <meta> tag vite.config.ts writes into the built index.html, and the
// header scripts/serve.mjs sends. docs/security.md says why each source is
// allowed.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // the app's own modules; 'wasm-unsafe-eval' compiles the engine's WebAssembly
  // (no 'unsafe-eval': the engine's glue is linked with -sDYNAMIC_EXECUTION=0)
  "script-src 'self' 'wasm-unsafe-eval'",
  // the engine's and the file reader's workers, from the app's own files
  "worker-src 'self'",
  // the engine's .wasm and the demo reports
  "connect-src 'self'",
  // style attributes written by ECharts' tooltips (HTML strings) and React
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
