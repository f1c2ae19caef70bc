import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/schema.js';
import { InputError } from '../core/errors.js';
import { MockBackend } from '../backends/mock/mock-backend.js';
import type { Backend } from '../backends/types.js';
import { loadFromTeamDirs, teamTaskFiles } from './file-tasks.js';
import type { NightDeps, NightRequest } from './run-night.js';

const root = (): string => realpathSync(mkdtempSync(path.join(os.tmpdir(), 'sos-team-')));

function tasksFile(file: string, tasks: Array<{ id: string; intent: string }>, reviewed = false): void {
  writeFileSync(file, JSON.stringify({ format: 'skillopt_sleep.tasks.v1', reviewed, tasks }));
}

const request: NightRequest = { project: '/p', config: defaultConfig(), mode: 'dry-run' };
const deps = (backend: Backend): NightDeps =>
  ({ backend, logger: { progress: () => {}, warn: () => {} } }) as unknown as NightDeps;
/** A backend that sends data off the machine (only its name and `offline` are read here). */
const remote = { ...new MockBackend(), name: 'openai', offline: false } as unknown as Backend;

describe('teamTaskFiles', () => {
  it('lists the *.json regular files of each folder, sorted, each once, and skips links', () => {
    const dir = root();
    tasksFile(path.join(dir, 'bob.json'), []);
    tasksFile(path.join(dir, 'alice.json'), []);
    writeFileSync(path.join(dir, 'notes.md'), 'x');
    mkdirSync(path.join(dir, 'sub.json'));
    const elsewhere = path.join(root(), 'secret.json');
    writeFileSync(elsewhere, '{}');
    symlinkSync(elsewhere, path.join(dir, 'link.json'));
    expect(teamTaskFiles([dir, dir])).toEqual([path.join(dir, 'alice.json'), path.join(dir, 'bob.json')]);
  });

  it('refuses a missing folder, a file, and a folder without tasks files', () => {
    const dir = root();
    expect(() => teamTaskFiles([path.join(dir, 'nope')])).toThrow(/no such folder/);
    writeFileSync(path.join(dir, 'a.json'), '{}');
    expect(() => teamTaskFiles([path.join(dir, 'a.json')])).toThrow(/not a folder/);
    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    expect(() => teamTaskFiles([empty])).toThrow(InputError);
  });
});

describe('loadFromTeamDirs', () => {
  it('unites the files and says how many came from where', () => {
    const dir = root();
    tasksFile(path.join(dir, 'a.json'), [{ id: 't1', intent: 'add zod' }]);
    tasksFile(path.join(dir, 'b.json'), [
      { id: 't1', intent: 'add zod' },
      { id: 't2', intent: 'format api' },
    ]);
    const set = loadFromTeamDirs(request, deps(new MockBackend()), [dir]);
    expect(set.tasks.map((t) => t.intent)).toEqual(['add zod', 'format api']);
    expect(set.reviewed).toBe(false);
    expect(set.notes[0]).toMatch(/2 files \(a\.json, b\.json\): 2 tasks; 1 held by two files counted once/);
  });

  it('a backend that sends data refuses every unreviewed file, naming each', () => {
    const dir = root();
    tasksFile(path.join(dir, 'a.json'), [{ id: 't1', intent: 'x' }], true);
    tasksFile(path.join(dir, 'b.json'), [{ id: 't2', intent: 'y' }]);
    tasksFile(path.join(dir, 'c.json'), [{ id: 't3', intent: 'z' }]);
    const refusal = (): unknown => loadFromTeamDirs(request, deps(remote), [dir]);
    expect(refusal).toThrow(InputError);
    expect(refusal).toThrow(`${path.join(dir, 'b.json')}, ${path.join(dir, 'c.json')} to the openai backend`);
    tasksFile(path.join(dir, 'b.json'), [{ id: 't2', intent: 'y' }], true);
    tasksFile(path.join(dir, 'c.json'), [{ id: 't3', intent: 'z' }], true);
    expect(loadFromTeamDirs(request, deps(remote), [dir]).reviewed).toBe(true);
  });
});
