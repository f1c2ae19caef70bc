// Codex harvester on real rollouts (optional suite, `npm run test:samples`; see bench/README.md).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HarvestedSession } from '../../src/core/session.js';
import { onlySession, parseFile, shape } from '../../test/helpers/codex-harvest.js';
import { samplesDir } from './samples.js';

const SAMPLES = samplesDir('codex');

describe('codex on the real samples', () => {
  const sample = (name: string) => path.join(SAMPLES, name);
  const files = readdirSync(SAMPLES).map(sample);
  const users = (s: HarvestedSession | undefined) => s?.turns.filter((t) => t.role === 'user') ?? [];
  const answers = (s: HarvestedSession | undefined) =>
    s?.turns.filter((t) => t.role === 'assistant' && t.text !== '') ?? [];

  it('finds the sample files', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
  });

  for (const file of files) {
    it(`parses ${path.basename(file)} without crashing`, async () => {
      const parsed = await parseFile(file);
      expect(parsed.badLines).toBe(0);
      expect(parsed.endOffset).toBe(statSync(file).size);
      for (const s of parsed.sessions) {
        expect(s.turns.length).toBeGreaterThan(0);
        expect(s.turns.map((t) => t.seq)).toEqual(s.turns.map((_, i) => i));
        for (const t of s.turns)
          expect(t.text).not.toMatch(/^<environment_context|^# AGENTS\.md|<user_instructions>/);
      }
    });
  }

  const pinouchon = sample('pinouchon-rtchess-rollout-019aad50.jsonl');
  it.skipIf(!existsSync(pinouchon))(
    'counts every duplicated prompt and answer once (pinouchon)',
    async () => {
      const session = await onlySession(pinouchon);
      expect(session).toMatchObject({
        sessionId: '019aad50-a7e6-7422-b7a8-0b384290624f',
        cwd: '/Users/pinouchon/code/rtchess',
        model: 'gpt-5.1-codex-max',
        sourceVersion: '0.60.1',
        toolsUsed: ['shell_command', 'update_plan', 'apply_patch'],
      });
      // 55 response_item user messages = 1 environment context + 54 prompts (= 54 user_message events).
      expect(users(session)).toHaveLength(54);
      expect(answers(session)).toHaveLength(53);
      // 9 "Exit code: 1" shell outputs + 8 "apply_patch verification failed"; one turn_aborted.
      expect(users(session).reduce((n, t) => n + t.toolErrors, 0)).toBe(17);
      expect(users(session).filter((t) => t.interrupted)).toHaveLength(1);
      expect(session.turns.some((t) => t.text.includes('gAAAA'))).toBe(false);
    },
  );

  it.skipIf(!existsSync(pinouchon))(
    'resuming the large sample from a mid turn gives the same tail',
    async () => {
      const full = await onlySession(pinouchon);
      const middle = users(full)[27];
      if (middle === undefined) throw new Error('sample changed');
      const tail = await onlySession(pinouchon, middle.offset);
      expect(tail.sessionId).toBe(full.sessionId);
      expect(tail.turns.map(shape)).toEqual(full.turns.slice(middle.seq).map(shape));
    },
  );

  const legacy = sample('jaydenxsoe-legacy-rollout-2025-08-25T11-40-41-435aac8f.jsonl');
  it.skipIf(!existsSync(legacy))(
    'reads a legacy rollout (cwd from a "Current working directory" line)',
    async () => {
      const session = await onlySession(legacy);
      expect(session).toMatchObject({ cwd: '/Users/kobra/Dev/Chatgpt-Apps/ocodex-labs', branch: 'main' });
      expect(users(session)).toHaveLength(4);
      expect(answers(session)).toHaveLength(7);
      expect(session.turns.reduce((n, t) => n + t.toolNames.length, 0)).toBe(41);
    },
  );

  const empty = sample('jaydenxsoe-legacy-rollout-2025-08-21-empty-3cf49b45.jsonl');
  it.skipIf(!existsSync(empty))('yields nothing for a meta-only rollout', async () => {
    expect((await parseFile(empty)).sessions).toEqual([]);
  });

  const oldest = sample('jaydenxsoe-legacy-session-2025-08-23-0418f71e.json');
  it.skipIf(!existsSync(oldest))('reads the oldest whole-JSON session', async () => {
    const session = await onlySession(oldest);
    expect(session.sessionId).toBe('0418f71e-beb0-474c-a03d-1719a72e64cc');
    expect(users(session)).toHaveLength(1);
    expect(users(session)[0]?.text).not.toContain('\r');
    expect(session.toolsUsed).toEqual(['shell']);
  });

  const head = sample('simonw-cct-homelab-migration-head.jsonl');
  it.skipIf(!existsSync(head))('drops the AGENTS.md and environment messages (simonw head)', async () => {
    const session = await onlySession(head);
    expect(session.turns.map((t) => t.role)).toEqual(['user']);
    expect(session.turns[0]?.text).toMatch(/^can you analyse the MD files/);
    expect(session.model).toBe('gpt-5.2-codex');
  });
});
