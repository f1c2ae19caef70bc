/**
 * The sessions agents reported as ended (the Claude Code plugin's SessionEnd hook appends them to
 * `session-ends.jsonl` in the state home). A harvest claims the log (renames it, so the hook's next
 * appends start a new one), reads those transcripts first and as finished (their last line needs no
 * quiet time: the session is over), and deletes the claimed log once the harvest succeeded. A damaged
 * line is skipped: the harvest finds every transcript anyway, only later.
 */
import { readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../core/io/atomic-file.js';
import { PRIVATE_FILE_MODE } from '../core/io/private-mode.js';

export const LOG = 'session-ends.jsonl';
export const CLAIMED = 'session-ends.claimed.jsonl';
/** More than a day's sessions; a log that large was not read for a long while. */
const MAX_ENTRIES = 10_000;

export interface SessionEnds {
  /** Transcript paths of ended sessions, in the order they ended. */
  paths: ReadonlySet<string>;
  /** Forget the claimed entries (after the harvest stored them). */
  done(): void;
}

export function claimSessionEnds(stateHome: string): SessionEnds {
  const log = path.join(stateHome, LOG);
  const claimed = path.join(stateHome, CLAIMED);
  try {
    // A claimed log left by a harvest that failed is read again; new entries are added to it.
    const fresh = readText(log);
    if (fresh !== '') {
      renameSync(log, `${claimed}.new`);
      const text = `${readText(claimed)}${readText(`${claimed}.new`)}`;
      rmSync(`${claimed}.new`, { force: true });
      writeClaimed(claimed, text);
    }
  } catch {
    // The log is a hint: without it the harvest reads every file in its usual order.
  }
  const paths = new Set<string>();
  for (const line of readText(claimed).split('\n').slice(-MAX_ENTRIES)) {
    try {
      const entry = JSON.parse(line) as { transcript_path?: unknown };
      if (typeof entry.transcript_path === 'string' && path.isAbsolute(entry.transcript_path))
        paths.add(entry.transcript_path);
    } catch {
      // A torn or foreign line.
    }
  }
  return { paths, done: () => rmSync(claimed, { force: true }) };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function writeClaimed(file: string, text: string): void {
  // Private like every state file; written whole, then moved into place.
  writeFileAtomicSync(file, text, PRIVATE_FILE_MODE);
}
