import { describe, expect, it } from 'vitest';
import type { Edit } from '../core/task.js';
import { consolidate, skillBodyTokens, skillTextEditor } from './text-editor.js';
import { parseUnits } from './units.js';

const edit = (op: Edit['op'], content: string, anchor = ''): Edit => ({
  target: 'skill',
  op,
  content,
  anchor,
  rationale: '',
});

const DOC = `---
name: deploy
description: Deploy the service.
---
# Deploy

Deploy from main only.

- Run the smoke tests first.
- Tag the release.

<!-- skillopt: fixed -->
- Never deploy on Fridays.
<!-- /skillopt: fixed -->

\`\`\`sh
- not a bullet
\`\`\`
`;

const big = skillTextEditor({ budgetTokens: 5000 });

describe('parseUnits', () => {
  it('cuts a document into units whose texts join back byte for byte', () => {
    const units = parseUnits(DOC);
    expect(units.map((u) => u.text).join('')).toBe(DOC);
    expect(units.filter((u) => u.kind !== 'kept').map((u) => u.text.trim())).toEqual([
      'Deploy from main only.',
      '- Run the smoke tests first.',
      '- Tag the release.',
    ]);
  });

  it('keeps the rest of a document after an unclosed fixed marker', () => {
    const doc = 'Intro.\n\n<!-- skillopt: fixed -->\n- kept\n\nAlso kept.\n';
    expect(
      parseUnits(doc)
        .filter((u) => u.kind !== 'kept')
        .map((u) => u.text),
    ).toEqual(['Intro.\n']);
  });
});

describe('skillTextEditor', () => {
  it('adds, replaces and deletes bullets and paragraphs', () => {
    const r = big.apply(DOC, [
      edit('add', 'Announce the deploy in the channel.'),
      edit('replace', 'Tag the release with its version.', 'Tag the release.'),
      edit('delete', '', 'Deploy from main only.'),
    ]);
    expect(r.unmatched).toEqual([]);
    expect(r.doc).toContain(
      '- Run the smoke tests first.\n- Tag the release with its version.\n- Announce the deploy in the channel.\n',
    );
    expect(r.doc).not.toContain('Deploy from main only.');
    expect(r.doc).toContain('# Deploy\n\n- Run the smoke tests first.');
  });

  it('never edits the front matter, headings, code or fixed text', () => {
    const r = big.apply(DOC, [
      edit('delete', '', 'Never deploy on Fridays.'),
      edit('replace', 'x', 'name: deploy'),
      edit('delete', '', '# Deploy'),
      edit('delete', '', 'not a bullet'),
    ]);
    expect(r.applied).toEqual([]);
    expect(r.doc).toBe(DOC);
  });

  it('refuses an add that would cross the budget, and takes it once a delete makes room', () => {
    const tight = skillTextEditor({ budgetTokens: skillBodyTokens(DOC) + 10 });
    const add = edit('add', 'Write the release notes before you tag the release, always.');
    expect(tight.apply(DOC, [add]).unmatched).toEqual([add]);
    // The delete applies first, whatever the order the optimizer gave.
    const both = tight.apply(DOC, [add, edit('delete', '', 'Run the smoke tests first.')]);
    expect(both.unmatched).toEqual([]);
    expect(skillBodyTokens(both.doc)).toBeLessThanOrEqual(skillBodyTokens(DOC) + 10);
  });

  it('merges a near-duplicate add into the rule it repeats, keeping the longer wording', () => {
    const r = big.apply(DOC, [edit('add', 'Run the smoke tests first, always.')]);
    expect(r.doc).toContain('- Run the smoke tests first, always.\n- Tag the release.');
    expect(r.doc).not.toContain('- Run the smoke tests first.\n');
    expect(big.apply(DOC, [edit('add', 'run the smoke tests FIRST.')]).applied).toEqual([]);
  });

  it('consolidates near-duplicates to fit the budget before refusing', () => {
    const doc = `${DOC}- Run the smoke tests FIRST!\n`;
    const add = edit('add', 'Check dashboards.');
    const tight = skillTextEditor({ budgetTokens: skillBodyTokens(doc) + 1 });
    const r = tight.apply(doc, [add]);
    expect(r.applied).toEqual([add]);
    expect(r.doc).toBe(consolidate(big.apply(doc, [add]).doc));
    expect(r.doc).not.toContain('FIRST!');
  });
});
