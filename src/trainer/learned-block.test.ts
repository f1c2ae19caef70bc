import { describe, expect, it } from 'vitest';
import type { Edit } from '../core/task.js';
import { ALL_HOSTILE, UNSAFE_RE } from '../../test/helpers/hostile-text.js';
import { BLOCK_END, BLOCK_START, applyEdits, learnedRules } from './learned-block.js';

const add = (content: string): Edit => ({ target: 'skill', op: 'add', content, anchor: '', rationale: '' });

describe('learned block', () => {
  it('appends a block after hand-written text and keeps that text byte-identical', () => {
    const doc = '---\nname: x\n---\n\n# Hand written\n\nKeep   this   spacing.\n\n\n\nAnd this.';
    const { doc: out, applied } = applyEdits(doc, [add('Use "pnpm" instead of "npm".')]);
    expect(applied).toHaveLength(1);
    expect(out.startsWith(doc)).toBe(true);
    expect(learnedRules(out)).toEqual(['Use "pnpm" instead of "npm".']);
  });

  it('edits inside an existing block and leaves text after it alone', () => {
    const doc = `intro\n${BLOCK_START}\n- old rule\n${BLOCK_END}\n\ntrailer  text\n`;
    const out = applyEdits(doc, [
      add('new rule'),
      { target: 'skill', op: 'replace', content: 'older rule', anchor: 'old rule', rationale: '' },
    ]).doc;
    expect(out.startsWith('intro\n')).toBe(true);
    expect(out.endsWith(`${BLOCK_END}\n\ntrailer  text\n`)).toBe(true);
    expect(learnedRules(out)).toEqual(['older rule', 'new rule']);
  });

  it('reports duplicates and missing anchors as unmatched', () => {
    const doc = `${BLOCK_START}\n- Keep it short\n${BLOCK_END}\n`;
    const r = applyEdits(doc, [
      add('keep  it SHORT'),
      { target: 'skill', op: 'delete', content: '', anchor: 'nothing like this', rationale: '' },
    ]);
    expect(r.applied).toHaveLength(0);
    expect(r.unmatched).toHaveLength(2);
    expect(r.doc).toBe(doc);
  });

  it('deletes the one rule matching the anchor', () => {
    const doc = `${BLOCK_START}\n- a\n- use npm\n${BLOCK_END}`;
    const r = applyEdits(doc, [{ target: 'skill', op: 'delete', content: '', anchor: 'npm', rationale: '' }]);
    expect(learnedRules(r.doc)).toEqual(['a']);
  });

  it('refuses a delete or replace whose short anchor is in several rules, and takes the one rule it names', () => {
    const doc = `${BLOCK_START}\n- Use \`pnpm\` for installs\n- Run \`pnpm test\` before committing\n${BLOCK_END}\n`;
    const edit = (op: Edit['op'], anchor: string, content = ''): Edit => ({
      target: 'skill',
      op,
      content,
      anchor,
      rationale: '',
    });
    const ambiguous = applyEdits(doc, [edit('delete', 'pnpm'), edit('replace', 'pnpm', 'Use yarn')]);
    expect(ambiguous.applied).toHaveLength(0);
    expect(ambiguous.unmatched).toHaveLength(2);
    expect(ambiguous.doc).toBe(doc);
    const named = applyEdits(doc, [edit('delete', 'before committing')]);
    expect(learnedRules(named.doc)).toEqual(['Use `pnpm` for installs']);
  });

  it('matches an anchor copied with its bullet or without backticks, and never renders "- - "', () => {
    const doc = `${BLOCK_START}\n- Run \`vitest --run\`, never watch mode\n- Keep it short\n${BLOCK_END}\n`;
    const r = applyEdits(doc, [
      {
        target: 'skill',
        op: 'replace',
        content: '- Run `vitest --run` (watch mode hangs in CI)',
        anchor: '- Run vitest --run, never watch mode',
        rationale: '',
      },
      { target: 'skill', op: 'delete', content: '', anchor: '- Keep it short', rationale: '' },
      add('- Write commit subjects in the imperative'),
    ]);
    expect(r.unmatched).toHaveLength(0);
    expect(learnedRules(r.doc)).toEqual([
      'Run `vitest --run` (watch mode hangs in CI)',
      'Write commit subjects in the imperative',
    ]);
    expect(r.doc).not.toContain('- - ');
  });

  it('refuses a START marker without END instead of truncating the file', () => {
    expect(() => applyEdits(`x\n${BLOCK_START}\n- a\nprecious text`, [add('b')])).toThrow(/no <!-- SKILLOPT/);
  });
});

describe('learned block and hostile text', () => {
  it('a model edit with escape sequences becomes a plain one-line rule', () => {
    const { doc } = applyEdits('# Skill\n', [add(`Use pnpm ${ALL_HOSTILE} always`)]);
    expect(doc).not.toMatch(UNSAFE_RE);
    expect(learnedRules(doc)).toHaveLength(1);
    expect(learnedRules(doc)[0]).toMatch(/^Use pnpm .* always$/);
  });
});
