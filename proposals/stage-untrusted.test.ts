import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_HOSTILE, UNSAFE_RE } from '../test/helpers/hostile-text.js';
import { stageProposal } from './stage.js';
import { ledgerFor } from './test-helpers.js';

describe('stageProposal with untrusted text', () => {
  it('writes report.md, report.json and proposal.diff without escape sequences or control characters', async () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'sos-stage-hostile-'));
    const staged = await stageProposal({
      projectDir: project,
      ledger: ledgerFor(project),
      night: 1,
      now: Date.UTC(2026, 0, 2),
      targets: [
        {
          kind: 'skill',
          livePath: path.join(project, '.claude/skills/x/SKILL.md'),
          baseText: `old ${ALL_HOSTILE}\n`,
          proposedText: `new ${ALL_HOSTILE}\n`,
        },
      ],
      reportMd: `# report\n\nsentence: ${ALL_HOSTILE}\n`,
      reportJson: { notes: [`note ${ALL_HOSTILE}`], [`key${ALL_HOSTILE}`]: { tags: [ALL_HOSTILE] } },
    });
    for (const f of ['report.md', 'report.json', 'proposal.diff']) {
      const text = fs.readFileSync(path.join(staged.dir, f), 'utf8');
      expect(text, f).not.toMatch(UNSAFE_RE);
      expect(text, f).not.toMatch(/\\u00[0-9a-f]{2}/i); // nor JSON-escaped
    }
    expect(fs.readFileSync(path.join(staged.dir, 'proposal.diff'), 'utf8')).toMatch(/^-old /m);
  });
});
