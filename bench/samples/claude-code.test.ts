// Claude Code harvester on real transcripts (optional suite, `npm run test:samples`; see bench/README.md).
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claude } from '../../harvesters/claude-code/claude-code.js';
import type { HarvestedSession } from '../../src/core/session.js';
import { onlySession as only, sourceFile, samplesDir } from './samples.js';

const SAMPLES = samplesDir('claude');
const parseFile = (file: string) => claude.parse(sourceFile(claude, file), 0);
const onlySession = (file: string) => only(claude, file);

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'claude-samples-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('claude on the real samples', () => {
  const sampleFiles = readdirSync(SAMPLES)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => path.join(SAMPLES, name));
  const isSummaryOnly = (file: string) => file.includes('summary-only');

  it('finds the sample files', () => {
    expect(sampleFiles.length).toBeGreaterThan(5);
  });

  for (const file of sampleFiles) {
    it.skipIf(!existsSync(file))(`parses ${path.basename(file)} without crashing`, async () => {
      const parse = await parseFile(file);
      expect(parse.endOffset).toBe(statSync(file).size);
      expect(parse.badLines).toBe(0);
      if (isSummaryOnly(file)) {
        expect(parse.sessions).toEqual([]);
        return;
      }
      expect(parse.sessions.length).toBeGreaterThanOrEqual(1);
      for (const s of parse.sessions) {
        expectCleanTurns(s);
        expect(s.startedAt).not.toBeNull();
      }
    });
  }

  it.skipIf(!existsSync(path.join(SAMPLES, 'swordintel-livecd-gen-e1ffaf02.jsonl')))(
    'keeps inline sidechain prompts, compact summaries and API errors out of the turns',
    async () => {
      const s = await onlySession(path.join(SAMPLES, 'swordintel-livecd-gen-e1ffaf02.jsonl'));
      expect(s.model).toBe('claude-opus-4-1-20250805');
      expect(s.turns.some((t) => t.interrupted)).toBe(true);
      expect(s.turns.reduce((n, t) => n + t.toolErrors, 0)).toBeGreaterThan(0);
      expect(s.turns.some((t) => t.text.startsWith('API Error'))).toBe(false);
    },
  );

  const tree = path.join(SAMPLES, 'eduardodmb-claude-home-tree');
  it.skipIf(!existsSync(tree))(
    'discovers and parses a real ~/.claude tree, skipping sub-agents',
    async () => {
      const files = await claude.discover({ home: tmp, env: { CLAUDE_CONFIG_DIR: tree } });
      expect(files).toHaveLength(5);
      expect(
        files.some((f) => f.path.includes('subagents') || path.basename(f.path).startsWith('agent-')),
      ).toBe(false);
      const byStem = new Map<string, HarvestedSession[]>();
      for (const f of files) {
        const parse = await claude.parse(f, 0);
        expect(parse.badLines).toBe(0);
        parse.sessions.forEach(expectCleanTurns);
        byStem.set(path.basename(f.path, '.jsonl'), parse.sessions);
      }
      // The /clear-only session has no turns; prompt-only sessions are kept (the core decides about them).
      expect(byStem.get('8d94c819-dc94-47e1-9338-b1489e7612a3')).toEqual([]);
      expect(byStem.get('38cc8e51-4f21-4435-8f21-4216bcbf225a')?.[0]?.turns.map((t) => t.role)).toEqual([
        'user',
      ]);
      const init = byStem.get('3dae6bc4-bf52-4a30-a961-09999364d8c6')?.[0];
      expect(init?.skillsUsed).toContain('init');
      expect(init?.cwd).toBe('X:\\01_Edmb\\Clockhelp');
      expect(init?.toolsUsed).toContain('Agent');
    },
  );
});

/** Invariants every harvested Claude session must satisfy. */
function expectCleanTurns(s: HarvestedSession): void {
  expect(s.turns.length).toBeGreaterThan(0);
  s.turns.forEach((t, i) => expect(t.seq).toBe(i));
  for (const t of s.turns) {
    if (t.role === 'user') {
      expect(t.text.trim()).not.toBe('');
      expect(t.text.startsWith('This session is being continued')).toBe(false);
      expect(t.text.startsWith('[Request interrupted')).toBe(false);
      expect(t.text.slice(0, 200)).not.toMatch(/<command-name>|<command-message>|<local-command-/);
    } else {
      expect(t.text !== '' || t.toolNames.length > 0).toBe(true);
    }
  }
}
