/** Progress and diagnostics go to a logger (stderr in the CLI), never to stdout, so `--json` stays pure. */
export interface Logger {
  progress(message: string): void;
  warn(message: string): void;
}

export const silentLogger: Logger = { progress: () => {}, warn: () => {} };

/** Collects messages in memory; handy in tests. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    progress: (m) => lines.push(`progress: ${m}`),
    warn: (m) => lines.push(`warn: ${m}`),
  };
}
