/**
 * Reading and writing the user's crontab through the `crontab` program (from PATH, or the binary
 * SKILLOPT_SLEEP_CRONTAB names). A read that fails for any reason other than "no crontab for <user>"
 * stops everything: writing after a failed read is how a scheduler wipes someone's crontab.
 */
import { spawnSync } from 'node:child_process';
import type { Env } from '../config/paths.js';
import { IoError, errnoCode } from '../core/errors.js';

/** There is no crontab program at all (so there can be no managed lines to remove either). */
export class CrontabMissingError extends IoError {}

export interface CrontabIo {
  /** The crontab as latin1 text ('' when the user has none). */
  read(): string;
  write(text: string): void;
  /** How the binary was chosen, for messages. */
  binary: string;
}

export function crontabBinary(env: Env): string {
  const override = env.SKILLOPT_SLEEP_CRONTAB;
  return override && override.trim() !== '' ? override : 'crontab';
}

function describeFailure(
  binary: string,
  args: string,
  r: ReturnType<typeof spawnSync>,
  stderr: string,
): string {
  if (r.error) {
    const code = errnoCode(r.error);
    if (code === 'ENOENT')
      return `\`${binary}\` was not found (install cron, put crontab on PATH, or set SKILLOPT_SLEEP_CRONTAB)`;
    return `\`${binary} ${args}\` could not run: ${r.error.message}`;
  }
  const how = r.signal ? `was killed by ${r.signal}` : `exited ${String(r.status)}`;
  return `\`${binary} ${args}\` ${how}${stderr.trim() ? `: ${stderr.trim()}` : ''}`;
}

/** "no crontab for alice" (Vixie/Debian, cronie, BSD, macOS): the only failure that means "empty". */
const NO_CRONTAB = /^\s*no crontab for \S+/im;

export function systemCrontab(env: Env): CrontabIo {
  const binary = crontabBinary(env);
  return {
    binary,
    read() {
      const r = spawnSync(binary, ['-l'], { env: { ...env }, maxBuffer: 64 * 1024 * 1024 });
      const stderr = r.stderr ? r.stderr.toString('utf8') : '';
      if (!r.error && r.status === 0) return r.stdout.toString('latin1');
      if (!r.error && r.status !== null && NO_CRONTAB.test(stderr)) return '';
      const missing = r.error !== undefined && errnoCode(r.error) === 'ENOENT';
      throw new (missing ? CrontabMissingError : IoError)(
        `cannot read the current crontab, so nothing was changed: ${describeFailure(binary, '-l', r, stderr)}`,
      );
    },
    write(text) {
      const r = spawnSync(binary, ['-'], { env: { ...env }, input: Buffer.from(text, 'latin1') });
      const stderr = r.stderr ? r.stderr.toString('utf8') : '';
      if (!r.error && r.status === 0) return;
      throw new IoError(`could not install the new crontab: ${describeFailure(binary, '-', r, stderr)}`);
    },
  };
}

/** Our own text (UTF-8 project paths) as the latin1 form the crontab text is handled in. */
export const asCrontabText = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
export const fromCrontabText = (s: string): string => Buffer.from(s, 'latin1').toString('utf8');
