// VS Code Copilot Chat harvester on real files (optional suite, `npm run test:samples`; see bench/README.md).
import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copilot, WORKSPACE_STORAGE_ENV } from '../../harvesters/copilot-vscode/copilot-vscode.js';
import { parseTranscriptFile } from '../../harvesters/copilot-vscode/transcript.js';
import { onlySession as only, sourceFile, samplesDir } from './samples.js';

const SAMPLES = samplesDir('copilot');
const onlySession = (file: string) => only(copilot, file);

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'copilot-samples-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('copilot: real samples', () => {
  const sample = (name: string) => path.join(SAMPLES, name);

  it.skipIf(!existsSync(sample('gitai-copilot_session_simple.json')))(
    'parses the legacy document and its op-log twin to the same turns',
    async () => {
      const fromJson = await onlySession(sample('gitai-copilot_session_simple.json'));
      const fromLog = await onlySession(sample('gitai-copilot_session_simple.jsonl'));
      expect(fromJson.turns).toEqual(fromLog.turns);
      expect(fromJson.turns.filter((t) => t.role === 'user')).toHaveLength(3);
      expect(fromJson.turns.filter((t) => t.role === 'assistant')).toHaveLength(3);
      expect(fromJson.toolsUsed).toEqual(['copilot_replaceString', 'copilot_findTextInFiles']);
      const texts = fromJson.turns.map((t) => t.text).join('\n');
      expect(texts).toContain('TypeScript project with an index.ts file');
      expect(texts).not.toMatch(/<attachments>|<context>|reminderInstructions|```\n+```/);
    },
  );

  it.skipIf(!existsSync(sample('gitai-copilot_session_multiline.jsonl')))(
    'replays the multi-line op log',
    async () => {
      const result = await copilot.parse(
        sourceFile(copilot, sample('gitai-copilot_session_multiline.jsonl')),
        0,
      );
      expect(result.badLines).toBe(0);
      const [session] = result.sessions;
      expect(session?.sessionId).toBe('7de89a80-6d93-43e7-be0a-0a9afe980198');
      expect(session?.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(session?.turns[2]?.text).toBe('follow up message');
      expect(session?.endedAt).toBeGreaterThan(session?.startedAt ?? Infinity);
      expect(JSON.stringify(session)).not.toMatch(/renderedUserMessage|reminderInstructions/);
    },
  );

  it.skipIf(!existsSync(sample('skillopt-fixture/session-v3.jsonl')))(
    'keeps the privacy boundary of the reference fixture',
    async () => {
      const session = await onlySession(sample('skillopt-fixture/session-v3.jsonl'));
      expect(session.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
      expect(session.toolsUsed).toEqual(['copilot_readFile']);
      expect(JSON.stringify(session)).not.toMatch(/private|obsolete|orphan|foreign|raw tool/i);
    },
  );

  it.skipIf(!existsSync(sample('gitai-vscode-workspace-layout')))(
    'discovers and parses the workspace layout in place',
    async () => {
      const found = await copilot.discover({ home: tmp, env: { [WORKSPACE_STORAGE_ENV]: SAMPLES } });
      const transcript = found.find((f) => f.path.includes('gitai-vscode-workspace-layout'));
      expect(found.some((f) => f.path.includes('debug-logs'))).toBe(false);
      if (transcript === undefined) throw new Error('transcript not found');
      const session = await onlySession(transcript.path);
      expect(session).toMatchObject({ sessionId: 'test-session-abc', cwd: '/Users/test/project' });
      expect(session.turns.map((t) => [t.role, t.text, t.toolNames])).toEqual([
        ['user', 'Fix the bug', []],
        ['assistant', '', ['read_file']],
      ]);
    },
  );

  it.skipIf(!existsSync(sample('gitai-copilot_vscode_event_stream_sanitized.jsonl')))(
    'parses the loose event-stream samples',
    () => {
      for (const name of [
        'gitai-copilot_vscode_event_stream_sanitized.jsonl',
        'gitai-copilot_vscode_transcript_event_stream.jsonl',
      ]) {
        const file = sample(name);
        const meta = { fallbackSessionId: 'x', cwd: '/w', sourcePath: file };
        const { session, badLines } = parseTranscriptFile(file, meta);
        expect(badLines).toBe(0);
        expect(session?.turns.filter((t) => t.role === 'user')).toHaveLength(1);
        expect(session?.turns.filter((t) => t.role === 'assistant').length).toBeGreaterThanOrEqual(2);
        expect(session?.toolsUsed.length).toBe(2);
        expect(JSON.stringify(session)).not.toMatch(/Begin Patch|startLine/);
      }
    },
  );
});
