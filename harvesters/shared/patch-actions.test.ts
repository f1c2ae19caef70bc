import { describe, expect, it } from 'vitest';
import { diffText, patchActions } from './patch-actions.js';

describe('patch actions', () => {
  it('gives one action per file section, moves and end-of-file markers carrying no text', () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.ts',
      '*** Move to: b.ts',
      '@@ fn',
      ' keep',
      '-old',
      '+new',
      '*** End of File',
      '*** Add File: c.ts',
      '+x',
      '*** Delete File: d.ts',
      '*** End Patch',
    ].join('\r\n');
    expect(patchActions('apply_patch', patch)).toEqual([
      { kind: 'edit', tool: 'apply_patch', target: 'a.ts', added: 'new', removed: 'old' },
      { kind: 'write', tool: 'apply_patch', target: 'c.ts', added: 'x', removed: '' },
      { kind: 'delete', tool: 'apply_patch', target: 'd.ts', added: '', removed: '' },
    ]);
    expect(patchActions('apply_patch', 'not a patch')).toEqual([]);
  });

  it('reads the changed lines of a unified diff, skipping its file headers', () => {
    expect(diffText('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--c\n')).toEqual({
      added: 'b',
      removed: 'a\n-c',
    });
  });
});
