/**
 * A write-ahead journal for changing several live files as one unit (adopt and revert).
 *
 * Order: copies of the old bytes are on disk (the caller's backups) → the journal (every file's
 * hash before and after, where its old bytes are, the temp file it will use, the folders it will
 * create) is recorded in the store, then written and fsynced beside the proposal → each live file is
 * replaced by writing a temp file beside it and renaming it over → the caller's commit marker (the
 * receipt, naming the transaction id) → the journal is removed. A kill at any moment therefore leaves
 * every live file wholly old or wholly new, and `recoverTransaction` (run by the next command)
 * finishes a transaction whose marker exists or rolls it back. Recovery acts only on the store's copy:
 * the file arrives with a clone like the rest of the folder, and its paths and modes could be anything.
 */
import { lstat, mkdir, rename, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { IoError, errorMessage, errnoCode, isMissingPathError } from '../src/core/errors.js';
import { sha256Hex } from '../src/core/hash.js';
import type { ProposalLedger } from '../src/core/proposal-ledger.js';
import { parseJsonWith } from '../src/core/io/json-file.js';
import type { Checkpoint } from './types.js';
import { fsyncDirectory, writeFileAtomic } from '../src/core/io/atomic-file.js';
import { PRIVATE_FILE_MODE } from '../src/core/io/private-mode.js';
import { readFileIfExists } from '../src/core/io/read-file.js';

export const JOURNAL_FILE = '.transaction.json';

const hashOrAbsent = z.union([z.literal(''), z.string().regex(/^[0-9a-f]{64}$/)]);

const journalEntrySchema = z.object({
  livePath: z.string(),
  /** The live path with symlinks resolved: where the bytes go. */
  writePath: z.string(),
  /** '' = the file did not exist before / is removed after. */
  beforeSha256: hashOrAbsent,
  afterSha256: hashOrAbsent,
  /** A file holding the old bytes ('' when there were none). */
  beforeCopy: z.string(),
  mode: z.number().int(),
  tempPath: z.string(),
  /** The first folder this transaction creates for the file ('' when none). */
  createdDir: z.string(),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

const journalSchema = z.object({
  schema: z.literal('skillopt-sleep.transaction'),
  version: z.literal(1),
  txId: z.string().min(1),
  kind: z.enum(['adopt', 'revert']),
  proposalId: z.string(),
  startedAt: z.number(),
  entries: z.array(journalEntrySchema),
});
export type Journal = z.infer<typeof journalSchema>;

/** One file to change: its new bytes (null = remove it) and where its old bytes are kept. */
export interface TxFile {
  livePath: string;
  writePath: string;
  before: Buffer | null;
  /** Path of a copy of `before` ('' when `before` is null). */
  beforeCopy: string;
  after: Buffer | null;
  mode: number;
}

export interface TransactionOptions {
  /** The proposal folder; the journal lives there. */
  dir: string;
  txId: string;
  kind: Journal['kind'];
  proposalId: string;
  now: number;
  files: readonly TxFile[];
  /** Writes the commit marker (the receipt naming txId). */
  commit: (createdDirs: string[]) => Promise<void>;
  step: StepCounter;
  /** Where the journal is recorded first: recovery trusts no other copy. */
  ledger: ProposalLedger;
}

/** Numbers the steps of one command for the test hook. */
export class StepCounter {
  private n = 0;
  private readonly hook: Checkpoint | undefined;
  constructor(hook: Checkpoint | undefined) {
    this.hook = hook;
  }
  reach(what: string): void {
    this.n += 1;
    this.hook?.(this.n, what);
  }
}

export function journalPath(dir: string): string {
  return path.join(dir, JOURNAL_FILE);
}

export async function runTransaction(options: TransactionOptions): Promise<void> {
  const { dir, txId, files, step, ledger } = options;
  const entries: JournalEntry[] = [];
  for (const [index, file] of files.entries()) {
    entries.push({
      livePath: file.livePath,
      writePath: file.writePath,
      beforeSha256: file.before == null ? '' : sha256Hex(file.before),
      afterSha256: file.after == null ? '' : sha256Hex(file.after),
      beforeCopy: file.beforeCopy,
      mode: file.mode,
      tempPath: path.join(path.dirname(file.writePath), `.skillopt-sleep-${txId}-${index + 1}.tmp`),
      createdDir: await firstMissingDir(path.dirname(file.writePath)),
    });
  }
  const journal: Journal = {
    schema: 'skillopt-sleep.transaction',
    version: 1,
    txId,
    kind: options.kind,
    proposalId: options.proposalId,
    startedAt: options.now,
    entries,
  };
  const text = `${JSON.stringify(journal, null, 2)}\n`;
  ledger.recordJournal(options.proposalId, text);
  await writeFileAtomic(journalPath(dir), text, PRIVATE_FILE_MODE);
  step.reach('journal written');
  try {
    for (const [index, entry] of entries.entries()) {
      const file = files[index];
      if (file === undefined) throw new Error('unreachable: journal entry without a file');
      await replaceOne(entry, file.after, step);
    }
    await options.commit(entries.map((e) => e.createdDir));
    step.reach('receipt written');
  } catch (err) {
    const failures = await rollBack(entries);
    if (failures.length > 0) {
      throw new IoError(
        `${options.kind} of proposal ${options.proposalId} failed (${errorMessage(err)}) and could not restore ${failures.join('; ')}; the journal ${journalPath(dir)} is kept and the old files are in the backups it names`,
      );
    }
    await unlink(journalPath(dir)).catch(() => undefined);
    ledger.clearJournal(options.proposalId);
    throw err;
  }
  await removeJournal(dir);
  ledger.clearJournal(options.proposalId);
  step.reach('journal removed');
}

async function replaceOne(entry: JournalEntry, after: Buffer | null, step: StepCounter): Promise<void> {
  const parent = path.dirname(entry.writePath);
  await mkdir(parent, { recursive: true });
  if (after == null) {
    await unlinkIfPresent(entry.writePath);
    await fsyncDirectory(parent);
    step.reach(`removed ${entry.livePath}`);
    return;
  }
  await writeFileAtomic(entry.tempPath, after, entry.mode);
  step.reach(`temp file for ${entry.livePath} written`);
  await rename(entry.tempPath, entry.writePath);
  await fsyncDirectory(parent);
  step.reach(`${entry.livePath} replaced`);
}

/** The file copy may be gone already (a kill after it was removed, before the store forgot it). */
async function removeJournal(dir: string): Promise<void> {
  await unlinkIfPresent(journalPath(dir));
  await fsyncDirectory(dir);
}

/** The store's copy of a journal, as `runTransaction` recorded it. */
export function parseJournal(text: string, proposalId: string): Journal {
  const check = parseJsonWith(text, journalSchema);
  if (!check.ok) {
    throw new IoError(`the store's journal of proposal ${proposalId} ${check.problem}; inspect it by hand`);
  }
  return check.value;
}

/** True when a journal file sits in the folder (one the store did not record is never read). */
export async function hasJournalFile(dir: string): Promise<boolean> {
  try {
    await lstat(journalPath(dir));
    return true;
  } catch (err) {
    if (isMissingPathError(err)) return false;
    throw err;
  }
}

/**
 * Finish (the commit marker exists: only the journal and temp files are left to clean) or roll
 * back an interrupted transaction. Throws when a file can be neither (someone edited it since).
 */
export async function recoverTransaction(
  dir: string,
  journal: Journal,
  committed: boolean,
): Promise<'finished' | 'rolled_back'> {
  if (committed) {
    for (const entry of journal.entries) await unlinkIfPresent(entry.tempPath);
    await removeJournal(dir);
    return 'finished';
  }
  const failures = await rollBack(journal.entries);
  if (failures.length > 0) {
    throw new IoError(
      `cannot roll back the interrupted ${journal.kind} of proposal ${journal.proposalId}: ${failures.join('; ')}; the journal ${journalPath(dir)} is kept`,
    );
  }
  await removeJournal(dir);
  return 'rolled_back';
}

/** Undo in reverse order; only files still holding the new bytes are restored. Returns what failed. */
async function rollBack(entries: readonly JournalEntry[]): Promise<string[]> {
  const failures: string[] = [];
  for (const entry of [...entries].reverse()) {
    try {
      await unlinkIfPresent(entry.tempPath);
      const current = await readFileIfExists(entry.writePath);
      const currentSha = current == null ? '' : sha256Hex(current);
      if (currentSha === entry.afterSha256 && currentSha !== entry.beforeSha256) {
        await restoreBefore(entry);
      } else if (currentSha !== entry.beforeSha256) {
        failures.push(`${entry.livePath} (changed by someone else meanwhile)`);
        continue;
      }
      if (entry.createdDir !== '' && entry.beforeSha256 === '') {
        await removeCreatedDirs(path.dirname(entry.writePath), entry.createdDir);
      }
    } catch (err) {
      failures.push(`${entry.livePath} (${errnoCode(err) ?? errorMessage(err)})`);
    }
  }
  return failures;
}

async function restoreBefore(entry: JournalEntry): Promise<void> {
  if (entry.beforeSha256 === '') {
    await unlinkIfPresent(entry.writePath);
    await fsyncDirectory(path.dirname(entry.writePath));
    return;
  }
  const copy = await readFileIfExists(entry.beforeCopy);
  if (copy == null || sha256Hex(copy) !== entry.beforeSha256) {
    throw new Error(`its backup ${entry.beforeCopy} is missing or altered`);
  }
  await writeFileAtomic(entry.writePath, copy, entry.mode);
}

export async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (err) {
    if (!isMissingPathError(err)) throw err;
  }
}

/** The outermost folder of `dir` that does not exist yet ('' when `dir` exists). */
async function firstMissingDir(dir: string): Promise<string> {
  let missing = '';
  let current = dir;
  for (;;) {
    try {
      await stat(current);
      return missing;
    } catch (err) {
      if (!isMissingPathError(err)) throw err;
      missing = current;
      const parent = path.dirname(current);
      if (parent === current) return missing;
      current = parent;
    }
  }
}

/** Remove the folders a transaction created, deepest first; stop at one that is not empty. */
export async function removeCreatedDirs(deepest: string, firstCreated: string): Promise<void> {
  let dir = deepest;
  for (;;) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    if (dir === firstCreated) return;
    const parent = path.dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}
