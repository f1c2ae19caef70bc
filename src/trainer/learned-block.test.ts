import { describe, expect, it } from 'vitest';
import type { Edit } from '../core/task.js';
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

  it('deletes rules matching the anchor', () => {
    const doc = `${BLOCK_START}\n- a\n- use npm\n${BLOCK_END}`;
    const r = applyEdits(doc, [{ target: 'skill', op: 'delete', content: '', anchor: 'npm', rationale: '' }]);
    expect(learnedRules(r.doc)).toEqual(['a']);
  });

  it('refuses a START marker without END instead of truncating the file', () => {
    expect(() => applyEdits(`x\n${BLOCK_START}\n- a\nprecious text`, [add('b')])).toThrow(/no <!-- SKILLOPT/);
  });
});
