import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { frontmatterBlock, frontmatterProblem, memoryFormatOf, newMemoryText } from './memory-format.js';

describe('memory file formats', () => {
  it('knows a Cursor rule and a Copilot instructions file by where they are', () => {
    expect(memoryFormatOf(path.join('/p', '.cursor/rules/team.mdc'))).toBe('cursor-rule');
    expect(memoryFormatOf(path.join('/p', '.github/instructions/py.instructions.md'))).toBe(
      'copilot-instructions',
    );
    expect(memoryFormatOf(path.join('/p', 'AGENTS.md'))).toBe('markdown');
    expect(memoryFormatOf(path.join('/p', 'notes/team.mdc'))).toBe('markdown');
  });

  it('starts a new rule or instructions file with a frontmatter its agent applies', () => {
    for (const format of ['cursor-rule', 'copilot-instructions'] as const) {
      const text = `${newMemoryText(format)}\n- a rule\n`;
      expect(frontmatterProblem(format, text)).toBeNull();
      expect(frontmatterBlock(text)).toBe(newMemoryText(format));
    }
    expect(newMemoryText('markdown')).toBe('');
  });

  it('reads Cursor globs as Cursor writes them (not strict YAML) and refuses what would be skipped', () => {
    const ok =
      '---\ndescription: Python style\nglobs: **/*.py, src/**/*.pyi\nalwaysApply: false\n---\nbody\n';
    expect(frontmatterProblem('cursor-rule', ok)).toBeNull();
    expect(frontmatterProblem('cursor-rule', '---\nalwaysApply: "true"\n---\n')).toMatch(/not true or false/);
    expect(frontmatterProblem('cursor-rule', '---\nglobs:\nalwaysApply: false\n---\n')).toMatch(
      /applies nowhere/,
    );
    expect(frontmatterProblem('cursor-rule', 'no frontmatter\n')).toMatch(/no frontmatter/);
    expect(frontmatterProblem('cursor-rule', '---\nalwaysApply: true\n')).toMatch(/closing/);
    expect(frontmatterProblem('copilot-instructions', "---\napplyTo: '**/*.ts'\n---\n")).toBeNull();
    expect(frontmatterProblem('copilot-instructions', '---\ndescription: x\n---\n')).toMatch(/applyTo/);
    expect(frontmatterProblem('markdown', 'anything')).toBeNull();
  });
});
