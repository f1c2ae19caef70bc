import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { transcriptRoots, watchTranscripts, type TranscriptWatcher } from './transcript-watcher.js';

let watcher: TranscriptWatcher | null = null;
afterEach(async () => {
  await watcher?.close();
  watcher = null;
});

async function until(what: string, probe: () => boolean, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A home with no agent folder yet, and a watcher counting the harvests it asks for. */
function emptyHome() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sos-watch-'));
  const calls = { changes: 0, roots: 0 };
  watcher = watchTranscripts({ home, env: {} }, () => calls.changes++, {
    debounceMs: 50,
    onError: (err) => {
      throw err;
    },
    onRootsChanged: () => calls.roots++,
  });
  const projects = path.join(home, '.claude', 'projects');
  /** What Claude Code does on its first session: the folders and a transcript in one go. */
  const firstSession = (): void => {
    mkdirSync(path.join(projects, '-work-app'), { recursive: true });
    writeFileSync(path.join(projects, '-work-app', 'aaaaaaaa-0000-0000-0000-000000000001.jsonl'), '{}\n');
  };
  return { home, calls, projects, firstSession };
}

describe('watchTranscripts', () => {
  it('starts watching an agent folder created after it started, and harvests what it holds', async () => {
    const { calls, projects, firstSession } = emptyHome();
    const w = watcher as TranscriptWatcher;
    expect(w.watching()).toEqual([]);
    await new Promise((r) => setTimeout(r, 300)); // the lookout's first scan
    firstSession();
    await until('the new folder to be watched', () => w.watching().includes(projects));
    await until('a harvest of the transcript already in it', () => calls.changes > 0);
    expect(calls.roots).toBeGreaterThan(0);
    // Later sessions in the new folder are seen as they are written.
    const before = calls.changes;
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(path.join(projects, '-work-app', 'aaaaaaaa-0000-0000-0000-000000000002.jsonl'), '{}\n');
    await until('a harvest of the next session', () => calls.changes > before);
  }, 20_000);

  it('refresh() of a folder that appeared harvests the transcripts already in it', async () => {
    const { calls, projects, firstSession } = emptyHome();
    const w = watcher as TranscriptWatcher;
    firstSession();
    w.refresh();
    expect(w.watching()).toContain(projects);
    await until('a harvest', () => calls.changes > 0);
  });

  it("watches the history files of the folders it is told of, as they become known (Aider's, in the projects)", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'sos-watch-'));
    const project = path.join(home, 'code', 'shop');
    mkdirSync(project, { recursive: true });
    const history = path.join(project, '.aider.chat.history.md');
    const folders: string[] = [];
    const ctx = () => ({ home, env: {}, projectFolders: () => folders });
    expect(transcriptRoots(ctx())).toContain(path.join(home, '.cursor', 'projects'));
    expect(transcriptRoots(ctx())).not.toContain(history);
    const calls = { changes: 0 };
    watcher = watchTranscripts(ctx, () => calls.changes++, {
      debounceMs: 50,
      onError: (err) => {
        throw err;
      },
    });
    writeFileSync(history, '\n# aider chat started at 2026-03-04 07:00:00\n');
    const w = watcher;
    expect(w.watching()).not.toContain(history);
    folders.push(project); // the store learned of the project
    w.refresh();
    expect(w.watching()).toContain(history);
    await until('a harvest of the history', () => calls.changes > 0);
  });
});

describe('transcriptRoots', () => {
  it("watches every source's folders, Gemini CLI's and Pi's with their overrides", () => {
    const roots = transcriptRoots({ home: '/h', env: {} });
    expect(roots).toEqual(expect.arrayContaining(['/h/.gemini/tmp', '/h/.pi/agent/sessions']));
    const moved = transcriptRoots({ home: '/h', env: { GEMINI_CLI_HOME: '/g', PI_CODING_AGENT_DIR: '/p' } }, [
      'gemini',
      'pi',
    ]);
    expect(moved).toEqual(['/g/.gemini/tmp', '/p/sessions']);
  });

  it("watches OpenCode's store and storage and Goose's sessions folder, with their own settings", () => {
    const roots = transcriptRoots({ home: '/h', env: {} }, ['opencode', 'goose']);
    expect(roots).toEqual([
      '/h/.local/share/opencode/opencode.db',
      '/h/.local/share/opencode/opencode.db-wal',
      '/h/.local/share/opencode/storage',
      '/h/.local/share/goose/sessions',
      '/h/AppData/Roaming/Block/goose/data/sessions',
    ]);
    const moved = transcriptRoots(
      { home: '/h', env: { XDG_DATA_HOME: '/x', OPENCODE_DB: '/db/oc.db', GOOSE_PATH_ROOT: '/g' } },
      ['opencode', 'goose'],
    );
    expect(moved).toEqual(['/db/oc.db', '/db/oc.db-wal', '/x/opencode/storage', '/g/data/sessions']);
  });
});
