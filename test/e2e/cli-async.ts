/**
 * Spawns the built CLI without blocking the event loop, so fake servers running in the test process
 * can answer it. Same sandbox rules as cli-helpers.ts: temporary HOME and state home.
 */
import { spawn } from 'node:child_process';
import { CLI, sandboxEnv, type CliResult, type Sandbox } from './cli-helpers.js';

export function runCliAsync(
  box: Sandbox,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: box.project,
      env: sandboxEnv(box, extraEnv),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code: code ?? -1,
        stdout,
        stderr,
        json: () => JSON.parse(stdout) as Record<string, unknown>,
      }),
    );
  });
}
