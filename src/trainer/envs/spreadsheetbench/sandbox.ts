/**
 * Runs the target's spreadsheet code in a separate Node process: a private temporary folder (0700) as
 * its working folder holding a copy of the input workbook, an empty environment, a heap limit
 * (`--max-old-space-size`), a wall-clock limit (the process group is killed), capped output, and Node's
 * permission model: it reads only that folder and the folder exceljs is installed in, writes only that
 * folder, and cannot start processes, workers or native addons. Node's permission model does not cover
 * the network, so the runner replaces every socket, datagram and DNS entry point with one that throws
 * before the code runs (a guard in the process, not an operating-system sandbox).
 *
 * The code is the body of an async function with `ExcelJS`, `INPUT_PATH`, `OUTPUT_PATH` and a `require`
 * that knows only `exceljs` in scope.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemTempDir } from '../../../config/paths.js';

export interface SandboxLimits {
  timeoutMs: number;
  memoryMb: number;
}

export interface SandboxRun {
  /** Exited 0 within the limits. */
  ok: boolean;
  timedOut: boolean;
  exitCode: number | null;
  /** The end of what the code printed (stdout and stderr), capped. */
  output: string;
}

const OUTPUT_CAP = 8_000;

/**
 * The permission flag of a Node version: `--permission` from 22.13 and 23.5 (where the model became
 * stable), `--experimental-permission` from 20.0 before that; none earlier.
 */
export function permissionFlag(version = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)) return '--permission';
  return major >= 20 ? '--experimental-permission' : undefined;
}

// The runner: network entry points disabled first, then exceljs loaded, then the code run.
const RUNNER = `
import net from 'node:net';
import tls from 'node:tls';
import dgram from 'node:dgram';
import dns from 'node:dns';
import { readFileSync } from 'node:fs';
const deny = () => { throw new Error('network access is disabled in the spreadsheet sandbox'); };
net.Socket.prototype.connect = deny;
net.connect = deny; net.createConnection = deny; net.Server.prototype.listen = deny;
tls.connect = deny; dgram.createSocket = deny;
for (const k of ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny']) { dns[k] = deny; dns.promises[k] = deny; }
for (const k of ['fetch', 'WebSocket', 'EventSource']) { try { delete globalThis[k]; } catch {} }
const [excelUrl, codeFile, input, output] = process.argv.slice(1);
const ExcelJS = (await import(excelUrl)).default;
const req = (name) => { if (name === 'exceljs') return ExcelJS; throw new Error('only exceljs can be required here'); };
const AsyncFunction = (async () => {}).constructor;
try {
  const run = new AsyncFunction('ExcelJS', 'INPUT_PATH', 'OUTPUT_PATH', 'require', readFileSync(codeFile, 'utf8'));
  await run(ExcelJS, input, output, req);
} catch (err) {
  // The error and the line of the code it came from (the function's header takes two lines): the same
  // words on every Node version, where a stack trace is not.
  const at = /<anonymous>:(\\d+):\\d+/.exec(String((err && err.stack) || ''));
  process.stderr.write(String(err) + (at ? ' (line ' + (Number(at[1]) - 2) + ' of the code)' : '') + '\\n');
  process.exit(1);
}
`;

let exceljsLocation: { url: string; modulesDir: string } | undefined;
function locateExceljs(): { url: string; modulesDir: string } {
  if (!exceljsLocation) {
    const require = createRequire(import.meta.url);
    const main = realpathSync(require.resolve('exceljs'));
    const pkgDir = path.dirname(realpathSync(require.resolve('exceljs/package.json')));
    // exceljs's own dependencies sit beside it (hoisted) or under it: allow the whole node_modules.
    exceljsLocation = { url: pathToFileURL(main).href, modulesDir: path.dirname(pkgDir) };
  }
  return exceljsLocation;
}

/** A private folder with the input workbook copied in; the caller removes it (`removeSandboxDir`). */
export function makeSandboxDir(inputFile: string): { dir: string; input: string; output: string } {
  const dir = mkdtempSync(path.join(systemTempDir(), 'sos-sheet-'));
  const input = path.join(dir, path.basename(inputFile));
  copyFileSync(inputFile, input);
  return { dir, input, output: path.join(dir, 'output.xlsx') };
}

export function removeSandboxDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function runSandboxed(
  code: string,
  box: { dir: string; input: string; output: string },
  limits: SandboxLimits,
): Promise<SandboxRun> {
  const flag = permissionFlag();
  if (flag === undefined) throw new Error('this Node has no permission model: spreadsheet code is not run');
  const { url, modulesDir } = locateExceljs();
  const dir = realpathSync(box.dir);
  const codeFile = path.join(dir, 'solution.js');
  writeFileSync(codeFile, code, { mode: 0o600 });
  const args = [
    flag,
    `--allow-fs-read=${dir}`,
    `--allow-fs-read=${modulesDir}`,
    `--allow-fs-write=${dir}`,
    `--max-old-space-size=${Math.max(16, Math.floor(limits.memoryMb))}`,
    '--no-warnings',
    '--input-type=module',
    '-e',
    RUNNER,
    url,
    codeFile,
    path.join(dir, path.basename(box.input)),
    path.join(dir, path.basename(box.output)),
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: dir,
      env: { TMPDIR: dir, TMP: dir, TEMP: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_CAP);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, limits.timeoutMs);
    let done = false;
    const finish = (exitCode: number | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // Paths of this machine (the private folder, where exceljs lives) say nothing to the model and
      // would make the same failure read differently on every run.
      const shown = output.split(dir).join('.').split(modulesDir).join('<node_modules>');
      resolve({ ok: exitCode === 0 && !timedOut, timedOut, exitCode, output: shown });
    };
    child.on('error', (err) => {
      output += String(err);
      finish(null);
    });
    child.on('close', (code) => finish(code));
  });
}
