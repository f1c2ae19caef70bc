import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeDigest, minerCodeDigest } from './code-digest.js';

function modules(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'digest-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe('codeDigest', () => {
  it('follows relative imports (cycles too) and changes when any reachable file does', () => {
    const files = {
      'a.js': "import { b } from './b.js';\nexport const a = b;",
      'b.js': "import './a.js';\nexport const b = () => import('./c.js');",
      'c.js': 'export const c = 1;',
      'unrelated.js': 'export const u = 1;',
    };
    const dir = modules(files);
    const before = codeDigest([path.join(dir, 'a.js')]);
    writeFileSync(path.join(dir, 'unrelated.js'), 'export const u = 2;');
    expect(codeDigest([path.join(dir, 'a.js')])).toBe(before);
    writeFileSync(path.join(dir, 'c.js'), 'export const c = 2;');
    expect(codeDigest([path.join(dir, 'a.js')])).not.toBe(before);
  });

  it('hashes the same code the same wherever it is installed', () => {
    const files = { 'a.js': "export * from './b.js';", 'b.js': 'export const b = 1;' };
    expect(codeDigest([path.join(modules(files), 'a.js')])).toBe(
      codeDigest([path.join(modules(files), 'a.js')]),
    );
  });

  it("finds the miner's own modules from the sources", () => {
    expect(minerCodeDigest()).toMatch(/^[0-9a-f]{16}$/);
  });
});
