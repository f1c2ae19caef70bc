/**
 * Crontabs for tests. `fakeCrontab` is a shell script that keeps its table in a file and can be told to
 * fail `-l`. `realCrontab` wraps Debian's /usr/bin/crontab so that it runs in a private mount namespace
 * with a temporary folder bound over /var/spool/cron/crontabs: the real binary, parsing and checks, but
 * the machine's real crontabs are never read or written (root only; null when that is not possible).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCrontab {
  /** The executable to put in SKILLOPT_SLEEP_CRONTAB (or on PATH as `crontab`). */
  bin: string;
  /** Environment the executable needs. */
  env: Record<string, string>;
  /** The stored table exactly as the binary would list it, or null when there is none. */
  table(): string | null;
  /** Install a table directly (the test's "user" editing their crontab). */
  install(text: string): void;
}

export function fakeCrontab(dir: string): TestCrontab & { writes(): number } {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'table');
  const bin = path.join(dir, 'crontab');
  writeFileSync(
    bin,
    `#!/bin/sh
t="$FAKE_CRONTAB_TABLE"
case "$1" in
  -l)
    if [ -n "$FAKE_CRONTAB_FAIL" ]; then printf '%s\\n' "$FAKE_CRONTAB_FAIL" >&2; exit 1; fi
    if [ ! -e "$t" ]; then echo "no crontab for tester" >&2; exit 1; fi
    if [ -n "$FAKE_CRONTAB_SLOW" ]; then sleep "$FAKE_CRONTAB_SLOW"; fi
    cat "$t" ;;
  -) cat > "$t.new" && mv "$t.new" "$t" && echo x >> "$t.writes" ;;
  *) echo "fake crontab: unsupported $*" >&2; exit 1 ;;
esac
`,
  );
  chmodSync(bin, 0o755);
  const read = (f: string): string | null =>
    existsSync(f) ? spawnSync('cat', [f], { encoding: 'latin1' }).stdout : null;
  return {
    bin,
    env: { FAKE_CRONTAB_TABLE: file },
    table: () => read(file),
    install: (text) => writeFileSync(file, Buffer.from(text, 'latin1')),
    writes: () => (read(`${file}.writes`) ?? '').split('\n').filter(Boolean).length,
  };
}

const SPOOL = '/var/spool/cron/crontabs';

/** Null (skip) unless /usr/bin/crontab exists, we are root and may create a private mount namespace. */
export function realCrontab(): TestCrontab | null {
  if (!existsSync('/usr/bin/crontab') || !existsSync(SPOOL) || process.getuid?.() !== 0) return null;
  if (spawnSync('unshare', ['-m', 'true']).status !== 0) return null;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sos-realcron-'));
  const spool = path.join(dir, 'spool');
  mkdirSync(spool, { mode: 0o1730 });
  const bin = path.join(dir, 'crontab');
  writeFileSync(
    bin,
    `#!/bin/sh
exec unshare -m sh -c 'mount --bind "$0" ${SPOOL} && exec /usr/bin/crontab "$@"' "$SOS_TEST_SPOOL" "$@"
`,
  );
  chmodSync(bin, 0o755);
  const env = { SOS_TEST_SPOOL: spool };
  const run = (args: string[], input?: string) =>
    spawnSync(bin, args, {
      env: { ...env, PATH: process.env.PATH ?? '' },
      encoding: 'latin1',
      ...(input !== undefined ? { input: Buffer.from(input, 'latin1') } : {}),
    });
  return {
    bin,
    env,
    table: () => {
      const r = run(['-l']);
      return r.status === 0 ? r.stdout : null;
    },
    install: (text) => {
      const r = run(['-'], text);
      if (r.status !== 0) throw new Error(`real crontab refused the table: ${r.stderr}`);
    },
  };
}
