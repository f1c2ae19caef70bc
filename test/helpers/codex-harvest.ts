// Fixtures and helpers shared by the Codex harvester's tests (harvesters/codex/*.test.ts).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect } from 'vitest';
import { codex } from '../../harvesters/codex/codex.js';
import type { SourceFile, HarvestedSession, HarvestedTurn } from '../../src/core/session.js';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURE_HOME = path.join(here, '..', 'fixtures', 'codex', 'codex-home');

export const G2 = '019aad50-0000-7000-8000-000000000001';
export const EVENTS_ONLY = '019a0000-0000-7000-8000-000000000002';
export const G1 = '64427691-0000-4000-8000-000000000003';
export const G0 = '0418f71e-0000-4000-8000-000000000004';
export const SUBAGENT_META = '019aae00-0000-7000-8000-000000000005';
export const META_ONLY = '3cf49b45-0000-4000-8000-000000000008';

export const G2_FILE = path.join(
  FIXTURE_HOME,
  'sessions/2025/11/22',
  `rollout-2025-11-22T20-45-35-${G2}.jsonl`,
);
export const EVENTS_FILE = path.join(
  FIXTURE_HOME,
  'archived_sessions',
  `rollout-2025-10-01T09-00-00-${EVENTS_ONLY}.jsonl`,
);
export const G1_FILE = path.join(
  FIXTURE_HOME,
  'sessions/2025/08/27',
  `rollout-2025-08-27T17-50-50-${G1}.jsonl`,
);
export const G0_FILE = path.join(FIXTURE_HOME, 'sessions', `rollout-2025-08-23-${G0}.json`);
export const SUBAGENT_FILE = path.join(
  FIXTURE_HOME,
  'sessions/2025/11/23',
  `rollout-2025-11-23T10-00-00-${SUBAGENT_META}.jsonl`,
);
export const META_ONLY_FILE = path.join(
  FIXTURE_HOME,
  'sessions/2025/08/21',
  `rollout-2025-08-21T06-29-22-${META_ONLY}.jsonl`,
);

let tmp = '';
/** A fresh temporary folder per test (call once at the top of a test file). */
export function useTmpDir(): () => string {
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'codex-harvest-'));
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });
  return () => tmp;
}

export function sourceFile(filePath: string): SourceFile {
  const st = statSync(filePath);
  return { source: 'codex', path: filePath, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

export async function parseFile(filePath: string, fromOffset = 0) {
  return codex.parse(sourceFile(filePath), fromOffset);
}

export async function onlySession(filePath: string, fromOffset = 0): Promise<HarvestedSession> {
  const { sessions } = await parseFile(filePath, fromOffset);
  expect(sessions).toHaveLength(1);
  const [session] = sessions;
  if (session === undefined) throw new Error('no session');
  return session;
}

/** The turn fields that matter for a comparison, without seq and offset. */
export const shape = (t: HarvestedTurn) => ({
  role: t.role,
  text: t.text,
  toolNames: t.toolNames,
  toolErrors: t.toolErrors,
  interrupted: t.interrupted,
});

export function writeLines(name: string, records: unknown[]): string {
  const file = path.join(tmp, name);
  writeFileSync(file, records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  return file;
}

export const envelope = (type: string, payload: unknown, timestamp = '2026-01-01T00:00:00.000Z') => ({
  timestamp,
  type,
  payload,
});
export const message = (role: string, text: string) => ({
  type: 'message',
  role,
  content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
});
