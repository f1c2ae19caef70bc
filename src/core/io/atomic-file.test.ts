import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { removeDeadWritersTemps, writeFileAtomic, writeFileAtomicSync } from './atomic-file.js';
import {
  readJsonFileOrNull,
  readJsonFileSync,
  readOptionalJsonFile,
  readOptionalJsonFileSync,
} from './json-file.js';
import { readFileIfExists, readTextIfExistsSync } from './read-file.js';

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'core-atomic-'));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const writers = {
  async: writeFileAtomic,
  sync: async (file: string, data: string | Uint8Array, mode: number): Promise<void> => {
    await Promise.resolve();
    writeFileAtomicSync(file, data, mode);
  },
};

describe.each(Object.entries(writers))('writeFileAtomic (%s)', (_, write) => {
  it('creates and replaces a file with the exact mode whatever the umask, leaving no temp files', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'f.md');
    const umask = process.umask(0o077);
    try {
      await write(file, 'one', 0o600);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      await write(file, Buffer.from('two'), 0o644);
    } finally {
      process.umask(umask);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('two');
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
    expect(fs.readdirSync(dir)).toEqual(['f.md']);
  });

  it('creates a missing parent folder', async () => {
    const file = path.join(tempDir(), 'a', 'b', 'f.json');
    await write(file, '{}', 0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('{}');
  });

  it('uses a short temp name, so a target name near the length limit still fits', async () => {
    const file = path.join(tempDir(), `${'n'.repeat(250)}.md`);
    await write(file, 'x', 0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });

  it('cleans up its temp file when the rename fails', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'occupied'));
    fs.writeFileSync(path.join(dir, 'occupied/inside'), 'x');
    await expect(write(path.join(dir, 'occupied'), 'data', 0o600)).rejects.toThrow();
    expect(fs.readdirSync(dir)).toEqual(['occupied']);
  });
});

describe('readFileIfExists', () => {
  it('returns null for a missing file or a file below a regular file', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'file'), 'x');
    expect(await readFileIfExists(path.join(dir, 'missing'))).toBeNull();
    expect(await readFileIfExists(path.join(dir, 'file/below'))).toBeNull();
    expect((await readFileIfExists(path.join(dir, 'file')))?.toString()).toBe('x');
    expect(readTextIfExistsSync(path.join(dir, 'file/below'))).toBeNull();
    expect(readTextIfExistsSync(path.join(dir, 'file'))).toBe('x');
  });
});

describe('JSON files read through a schema', () => {
  const schema = z.object({ n: z.number() }).strict();
  it('returns the value, or null for a missing optional file', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'ok.json'), '{"n": 1}');
    expect(readJsonFileSync(path.join(dir, 'ok.json'), schema, 'test')).toEqual({ n: 1 });
    expect(await readOptionalJsonFile(path.join(dir, 'none.json'), schema, 'test')).toBeNull();
    expect(readOptionalJsonFileSync(path.join(dir, 'none.json'), schema, 'test')).toBeNull();
  });

  it('names the owner, the file and the problem in one InputError', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'bad.json'), '{"n": ');
    fs.writeFileSync(path.join(dir, 'shape.json'), '{"n": "one"}');
    const bad = (): unknown => readJsonFileSync(path.join(dir, 'bad.json'), schema, 'store');
    expect(bad).toThrow(InputError);
    expect(bad).toThrow(/^store: bad\.json is not valid JSON \(/);
    await expect(readOptionalJsonFile(path.join(dir, 'shape.json'), schema, 'store')).rejects.toThrow(
      /^store: shape\.json is malformed: n: /,
    );
    expect(() => readJsonFileSync(path.join(dir, 'none.json'), schema, 'store')).toThrow(
      'store: none.json is missing',
    );
    expect(() => readJsonFileSync(dir, schema, 'store')).toThrow(/cannot be read \(EISDIR\)/);
  });

  it('the tolerant variant says null for anything it cannot use', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'bad.json'), 'nope');
    fs.writeFileSync(path.join(dir, 'ok.json'), '{"n": 2}');
    expect(readJsonFileOrNull(path.join(dir, 'bad.json'), schema)).toBeNull();
    expect(readJsonFileOrNull(path.join(dir, 'none.json'), schema)).toBeNull();
    expect(readJsonFileOrNull(path.join(dir, 'ok.json'), schema)).toEqual({ n: 2 });
  });
});

describe('removeDeadWritersTemps', () => {
  it('removes the temp files of writers that are gone and nothing else', async () => {
    const dir = tempDir();
    const gone = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' }).pid ?? 0;
    const names = {
      dead: `.tmp-${gone}-0123456789ab`,
      live: `.tmp-${process.pid}-0123456789ab`,
      other: `.tmp-${gone}-notours`,
      folder: `.tmp-${gone}-ba9876543210`,
    };
    for (const name of [names.dead, names.live, names.other]) fs.writeFileSync(path.join(dir, name), 'x');
    fs.mkdirSync(path.join(dir, names.folder));
    expect(await removeDeadWritersTemps(dir)).toEqual([names.dead]);
    expect(fs.readdirSync(dir).sort()).toEqual([names.folder, names.other, names.live].sort());
    expect(await removeDeadWritersTemps(path.join(dir, 'missing'))).toEqual([]);
  });
});
