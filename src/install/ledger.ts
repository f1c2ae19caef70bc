/**
 * What install wrote, kept in the state home (`installs.json`, 0600) with a copy of each config file as
 * it was before (`install-backups/`, 0600 in a 0700 folder): uninstall puts those bytes back exactly
 * when the file is still what we wrote, and cuts out only our part when someone changed it since.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import type { JSONPath } from 'jsonc-parser';
import { sha256Hex } from '../core/hash.js';
import { writeFileAtomicSync } from '../core/io/atomic-file.js';

export interface LedgerEntry {
  /** Whether the file existed before the first install (false: uninstall deletes it). */
  existed: boolean;
  /** The copy of its bytes before the first install. */
  backup: string | null;
  /** sha256 of the bytes install wrote last. */
  written_sha256: string;
  /** Folders install created for it, outermost first. */
  created_dirs: string[];
  /** The shallowest JSON path install added (removed again once empty). */
  inserted_at?: JSONPath;
  /**
   * The agents whose install wrote or found our part here (a project's `.mcp.json` entry serves both
   * `mcp` and `copilot`): uninstalling one leaves it while another still relies on it. Absent in older
   * ledgers: then the first uninstall takes it.
   */
  agents?: string[];
}

interface LedgerFile {
  version: 1;
  files: Record<string, LedgerEntry>;
}

export const ledgerFile = (home: string): string => path.join(home, 'installs.json');
export const backupsDir = (home: string): string => path.join(home, 'install-backups');

export class Ledger {
  private readonly data: LedgerFile;
  private readonly home: string;
  constructor(home: string) {
    this.home = home;
    const file = ledgerFile(home);
    this.data = { version: 1, files: {} };
    if (!existsSync(file)) return;
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LedgerFile>;
      if (parsed && typeof parsed.files === 'object' && parsed.files) this.data.files = parsed.files;
    } catch {
      // An unreadable ledger only costs the exact restore: uninstall then cuts out our part instead.
    }
  }

  get(file: string): LedgerEntry | undefined {
    return Object.hasOwn(this.data.files, file) ? this.data.files[file] : undefined;
  }

  set(file: string, entry: LedgerEntry): void {
    this.data.files[file] = entry;
  }

  /** Records that `agent`'s install relies on our part of `file` (a file install has a record of). */
  addAgent(file: string, agent: string): void {
    const entry = this.get(file);
    if (entry && !(entry.agents ?? []).includes(agent)) entry.agents = [...(entry.agents ?? []), agent];
  }

  /** The other agents whose install still relies on our part of `file`. */
  otherAgents(file: string, agent: string): string[] {
    return (this.get(file)?.agents ?? []).filter((a) => a !== agent);
  }

  /** `agent` no longer relies on `file`, which stays for the others. */
  dropAgent(file: string, agent: string): void {
    const entry = this.get(file);
    if (entry?.agents) entry.agents = entry.agents.filter((a) => a !== agent);
  }

  forget(file: string): void {
    this.dropBackup(file);
    delete this.data.files[file];
  }

  dropBackup(file: string): void {
    const entry = this.get(file);
    if (entry?.backup) rmSync(entry.backup, { force: true });
    if (entry) entry.backup = null;
  }

  /** Keeps `text` (the file before install) privately and returns where. */
  backup(file: string, text: string): string {
    const dir = backupsDir(this.home);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = path.join(
      dir,
      `${sha256Hex(file).slice(0, 16)}-${path.basename(file)}.skillopt-sleep.bak`,
    );
    writeFileAtomicSync(target, text, 0o600);
    return target;
  }

  backupText(entry: LedgerEntry): string | undefined {
    if (!entry.backup) return undefined;
    try {
      return readFileSync(entry.backup, 'utf8');
    } catch {
      return undefined;
    }
  }

  save(): void {
    const file = ledgerFile(this.home);
    const dir = backupsDir(this.home);
    if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
    if (Object.keys(this.data.files).length === 0) {
      rmSync(file, { force: true });
      return;
    }
    mkdirSync(this.home, { recursive: true, mode: 0o700 });
    writeFileAtomicSync(file, `${JSON.stringify(this.data, null, 2)}\n`, 0o600);
  }
}

export const written = (text: string): string => sha256Hex(text);
