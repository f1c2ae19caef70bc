/** A one-line progress bar on stderr, only on a terminal and only once the work takes a moment. */
import { cliIo } from './io.js';

const DELAY_MS = 400;
const WIDTH = 28;

export interface ProgressBar {
  update(done: number, total: number, label: string): void;
  finish(): void;
}

export function progressBar(enabled: boolean): ProgressBar {
  const stream = cliIo().stderr;
  const started = Date.now();
  let drawn = false;
  let lastDraw = 0;
  const active = enabled && stream.isTTY;
  return {
    update(done, total, label) {
      if (!active) return;
      const now = Date.now();
      if (now - started < DELAY_MS || (now - lastDraw < 80 && done < total)) return;
      lastDraw = now;
      const ratio = total === 0 ? 1 : done / total;
      const filled = Math.round(ratio * WIDTH);
      stream.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${total} ${label}\u001b[K`,
      );
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\r\u001b[K');
    },
  };
}
