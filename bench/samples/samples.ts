/**
 * Helpers of the optional real-samples suite (`npm run test:samples`, not part of `npm test`). The
 * samples are real transcripts read in place from $SKILLOPT_SAMPLES; they are never copied into the
 * repository.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Harvester } from '../../harvesters/types.js';
import type { SourceFile, HarvestedSession } from '../../src/core/session.js';

/** `$SKILLOPT_SAMPLES/<sub>`; throws (failing the file) when the variable or the folder is missing. */
export function samplesDir(sub: string): string {
  const root = process.env['SKILLOPT_SAMPLES'];
  if (root === undefined || root === '') {
    throw new Error(
      'set SKILLOPT_SAMPLES to a folder of real transcripts (claude/, codex/, copilot/, copilot_cli/)',
    );
  }
  const dir = path.join(root, sub);
  if (!existsSync(dir)) throw new Error(`no ${sub}/ folder in SKILLOPT_SAMPLES (${root})`);
  return dir;
}

export function sourceFile(harvester: Harvester, filePath: string): SourceFile {
  const st = statSync(filePath);
  return { source: harvester.id, path: filePath, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

export async function onlySession(
  harvester: Harvester,
  filePath: string,
  fromOffset = 0,
): Promise<HarvestedSession> {
  const { sessions } = await harvester.parse(sourceFile(harvester, filePath), fromOffset);
  expect(sessions).toHaveLength(1);
  const [session] = sessions;
  if (session === undefined) throw new Error('no session');
  return session;
}
