/**
 * Preloaded into a measured CLI process by bench/speed.ts (`node --import <this> dist/src/cli/main.js ...`):
 * at exit, appends the process's whole CPU time (start-up included) and peak RSS to $SPEED_USAGE_OUT.
 */
import { appendFileSync } from 'node:fs';

const out = process.env['SPEED_USAGE_OUT'];
if (out !== undefined) {
  process.on('exit', () => {
    const u = process.cpuUsage();
    const line = { cpu_ms: (u.user + u.system) / 1000, peak_rss_mib: process.resourceUsage().maxRSS / 1024 };
    appendFileSync(out, JSON.stringify(line) + '\n');
  });
}
