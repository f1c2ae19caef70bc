/**
 * Runs an installed agent CLI headless: the prompt goes over stdin (never argv, so nothing lands in the
 * process list or hits command-line limits), the working folder is a fresh empty temporary folder
 * (removed afterwards), and a timeout kills a hung run. A missing binary or a login problem is an
 * `auth`/`fatal` failure that stops the night with a clear message, never a silent empty answer.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { systemTempDir, type Env } from '../../../config/paths.js';
import { ProviderFailure } from '../chat.js';

export interface CliRun {
  binary: string;
  args: string[];
  stdin: string;
  env: Env;
  timeoutMs: number;
  /** Names the CLI in messages: `claude-code`, `codex`. */
  label: string;
  /** The config key that sets the binary's path, for the "not found" hint. */
  pathKey: string;
}

export interface CliOutput {
  stdout: string;
  stderr: string;
  code: number | null;
}

const AUTH_MARKERS =
  /not logged in|please (run )?\/?login|log ?in (again|first)|invalid api key|authentication|unauthori[sz]ed|\b401\b|expired (token|session|credentials)/i;
const RETRY_MARKERS =
  /rate limit|too many requests|\b429\b|overloaded|\b5\d\d\b|timed? ?out|ECONNRESET|network/i;

/** Classify a failed run by what it printed. */
export function cliFailure(label: string, text: string, code: number | null): ProviderFailure {
  const snippet = text.trim().replace(/\s+/g, ' ').slice(0, 300) || `exit code ${String(code)}`;
  if (AUTH_MARKERS.test(text)) {
    return new ProviderFailure(
      `${label} is not authenticated: ${snippet}. Log in with the CLI itself, then retry`,
      'auth',
    );
  }
  if (RETRY_MARKERS.test(text)) return new ProviderFailure(`${label} failed: ${snippet}`, 'retryable');
  return new ProviderFailure(`${label} failed: ${snippet}`, 'fatal');
}

export function runAgentCli(run: CliRun): Promise<CliOutput> {
  const cwd = mkdtempSync(path.join(systemTempDir(), 'skillopt-sleep-agent-'));
  const cleanup = (): void => rmSync(cwd, { recursive: true, force: true });
  return new Promise<CliOutput>((resolve, reject) => {
    const child = spawn(run.binary, run.args, {
      cwd,
      env: { ...run.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, run.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin.on('error', () => {
      // A CLI that exits before reading stdin is reported by its exit code below.
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      cleanup();
      reject(
        err.code === 'ENOENT'
          ? new ProviderFailure(
              `${run.label}: the executable "${run.binary}" was not found on PATH. Install it or set ${run.pathKey} to its full path`,
              'fatal',
            )
          : new ProviderFailure(`${run.label}: cannot start "${run.binary}": ${err.message}`, 'fatal'),
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      cleanup();
      if (timedOut) {
        reject(new ProviderFailure(`${run.label} timed out after ${run.timeoutMs} ms`, 'retryable'));
        return;
      }
      resolve({ stdout, stderr, code });
    });
    child.stdin.end(run.stdin, 'utf8');
  });
}

/** System prompt and messages as one stdin text (CLIs take a single prompt). */
/** A number an agent CLI reported, or 0 when it reported none (or nonsense). */
export const finiteOrZero = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

export function flattenPrompt(system: string, messages: Array<{ role: string; content: string }>): string {
  const parts = system ? [system] : [];
  for (const m of messages) parts.push(messages.length > 1 ? `[${m.role}]\n${m.content}` : m.content);
  return parts.join('\n\n');
}
