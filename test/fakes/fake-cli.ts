/** Puts fake `claude` and `codex` executables (shell wrappers around fake-agent.mjs) into a folder. */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const AGENT = path.resolve(import.meta.dirname, 'fake-agent.mjs');

export function installFakeAgents(binDir: string): string {
  mkdirSync(binDir, { recursive: true });
  for (const [name, flavor] of [
    ['claude', 'claude'],
    ['codex', 'codex'],
  ] as const) {
    const file = path.join(binDir, name);
    writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${AGENT}" ${flavor} "$@"\n`);
    chmodSync(file, 0o755);
  }
  return binDir;
}
