/** Comparing what the harvest stored with what a harvester parses from the same files (exact-harvest tests). */
import { statSync } from 'node:fs';
import type { HarvestedSession, SourceFile } from '../../src/core/session.js';
import type { StoredSession } from '../../src/store/sessions-repo.js';
import type { Harvester } from '../../harvesters/types.js';

/** What each file parses to, our replays left out: what the store must hold. */
export async function parsedSessions(
  harvester: Harvester,
  files: readonly SourceFile[],
): Promise<HarvestedSession[]> {
  const sessions: HarvestedSession[] = [];
  for (const file of files) {
    const parsed = await harvester.parse(file, 0, { includeOpenLastLine: true });
    sessions.push(...parsed.sessions.filter((s) => !s.turns[0]?.text.includes('skillopt-sleep:replay')));
  }
  return sessions;
}

/** A file on disk as the harvest sees it. */
export function sourceFileOf(harvester: Harvester, file: string): SourceFile {
  const st = statSync(file);
  return { source: harvester.id, path: file, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

/** A stored session as a parsed one (the store's own fields apart). */
export const asParsed = (s: StoredSession): HarvestedSession => {
  const { key: _key, projectRoot: _root, harvestedAt: _at, ...session } = s;
  return session;
};

/** The order both sides are compared in. */
export const byId = (a: HarvestedSession, b: HarvestedSession) => a.sessionId.localeCompare(b.sessionId);
