import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { frontmatterProblems } from './frontmatter.js';
import { joinPackage, readSkillPackage, splitPackage } from './package.js';
import { estimateTokens } from './tokens.js';

function makePackage(): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-pkg-')), 'notes');
  mkdirSync(path.join(dir, 'references'), { recursive: true });
  mkdirSync(path.join(dir, 'scripts'));
  writeFileSync(
    path.join(dir, 'SKILL.md'),
    '---\nname: notes\ndescription: Write notes.\n---\n# Notes\n\n- Be brief.',
  );
  writeFileSync(path.join(dir, 'references/a.md'), '# A\n\n- Small.\n');
  writeFileSync(path.join(dir, 'references/big.md'), `# Big\n\n${'word '.repeat(400)}\n`);
  writeFileSync(path.join(dir, 'scripts/go.sh'), '#!/bin/sh\n');
  const outside = path.join(path.dirname(dir), 'secret.md');
  writeFileSync(outside, '# Secret\n');
  symlinkSync(outside, path.join(dir, 'references/linked.md'));
  return dir;
}

describe('a skill package', () => {
  it('joins SKILL.md, small references and a listing, and splits back byte for byte', () => {
    const dir = makePackage();
    const pkg = readSkillPackage(path.join(dir, 'SKILL.md'), 100);
    expect(pkg.references.map((r) => r.relPath)).toEqual(['references/a.md']);
    expect(pkg.namedReferences).toEqual(['references/big.md']);
    expect(pkg.scripts).toEqual(['scripts/go.sh']);
    const joined = joinPackage(pkg);
    expect(joined.startsWith(pkg.skill.text)).toBe(true);
    expect(joined).toContain('scripts/go.sh');
    expect(joined).not.toContain('Secret');
    expect(splitPackage(pkg, joined).map((f) => f.text)).toEqual([pkg.skill.text, '# A\n\n- Small.\n']);
  });
});

describe('front matter', () => {
  it('follows the skill format', () => {
    expect(frontmatterProblems('---\nname: my-skill\ndescription: Does X. Use when Y.\n---\n')).toEqual([]);
    expect(frontmatterProblems('# no front matter\n')).toHaveLength(1);
    expect(frontmatterProblems('---\nname: My_Skill\ndescription: x\n---\n')[0]).toContain('lowercase');
    expect(frontmatterProblems(`---\nname: ${'a'.repeat(65)}\ndescription: x\n---\n`)[0]).toContain('64');
    expect(frontmatterProblems(`---\nname: a\ndescription: ${'d'.repeat(1025)}\n---\n`)[0]).toContain('1024');
    expect(frontmatterProblems('---\nname: a--b\ndescription: <b>x</b>\n---\n')).toHaveLength(2);
  });
});

describe('estimateTokens', () => {
  it('counts four characters of spaced text, one character of Han or kana, as a token', () => {
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('日本語')).toBe(3);
    expect(estimateTokens('')).toBe(0);
  });
});
