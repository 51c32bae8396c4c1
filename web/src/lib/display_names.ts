// Names as the viewer shows them, where the engine's text repeats itself or
// carries an importer's detail (display only: the CSV/XLSX exports, the
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
 * A thread track's label with its name said once: Kineto names a thread
 * "thread 25738 (python)", which the engine's "Thread 25738 (NAME)" repeats
 * ("Thread 25738 (thread 25738 (python))" -> "Thread 25738 (python)";
 * "Thread 7 (thread 7)" -> "Thread 7"). Any text after the label is kept.
 */
export function displayThreadLabel(label: string): string {
  return label.replace(/^Thread (\d+) \(thread \1(?: \((.*)\))?\)/, (_all, tid: string, name?: string) =>
    name ? `Thread ${tid} (${name})` : `Thread ${tid}`,
  );
}
