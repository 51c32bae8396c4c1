// Names as the viewer shows them, where the engine's text carries an
// importer's detail (display only: the CSV/XLSX exports, the
// permalinks and the CLI keep the engine's bytes).

/**
 * An Nsight Systems API name without its CUPTI version tag
 * ("cudaMemcpyAsync_v3020" -> "cudaMemcpyAsync"), as Nsight Systems shows
 * it. Only a whole plain identifier followed by _v and 4 or 5 digits: a
 * kernel's or a range's name with other text is left alone.
 */
export function displayApiName(name: string): string {
  const m = /^([A-Za-z_][A-Za-z0-9_]*?)_v\d{4,5}$/.exec(name);
  return m ? m[1] : name;
}

/**
 * A timeline slice's name as shown: an API call's without its version tag
 * (the tables already show it so), any other kind's as the engine has it
 * (a kernel may well end in "_v1234").
 */
export function displaySliceName(name: string, kind: string | undefined): string {
  return kind === 'api' || kind === 'apiError' || kind === 'allocFailure' ? displayApiName(name) : name;
}
