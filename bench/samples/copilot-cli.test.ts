// Copilot CLI harvester on real event streams (optional suite, `npm run test:samples`; see bench/README.md).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotCli } from '../../harvesters/copilot-cli/copilot-cli.js';
import { onlySession as only, sourceFile, samplesDir } from './samples.js';

const SAMPLES = samplesDir('copilot_cli');
const parseFile = (file: string) => copilotCli.parse(sourceFile(copilotCli, file), 0);
const onlySession = (file: string) => only(copilotCli, file);

describe('copilotCli on the real samples', () => {
  const files = readdirSync(SAMPLES, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.jsonl'))
    .map((d) => path.join(d.parentPath, d.name));

  it('parses every sample without crashing', async () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const { sessions, badLines, endOffset } = await parseFile(file);
      expect(badLines, file).toBe(0);
      expect(endOffset, file).toBe(statSync(file).size);
      expect(sessions.length, file).toBeLessThanOrEqual(1);
      for (const s of sessions) {
        expect(s.turns.length, file).toBeGreaterThan(0);
        expect(s.turns.map((x) => x.seq)).toEqual(s.turns.map((_, i) => i));
        expect(s.turns.every((x) => x.text !== '' || x.toolNames.length > 0 || x.role === 'user')).toBe(true);
      }
    }
  });

  const sample = (rel: string) => path.join(SAMPLES, rel);

  it('reads the session-state layout and the sanitized 1.0.45 session', async () => {
    const state = await onlySession(
      sample('agent-sessions-session-state/aaaabbbb-1111-2222-3333-ccccddddeeee/events.jsonl'),
    );
    expect(state).toMatchObject({ sessionId: 'aaaabbbb-1111-2222-3333-ccccddddeeee', cwd: '/tmp/project' });
    expect(state.turns.map((x) => [x.role, x.text, x.toolNames])).toEqual([
      ['user', 'List the files', []],
      ['assistant', '', ['bash']],
      ['assistant', 'The directory contains file1 and file2.', []],
    ]);

    const gitai = await onlySession(sample('gitai-copilot_cli_session_events.jsonl'));
    expect(gitai).toMatchObject({
      cwd: '/Users/test/project',
      branch: 'master',
      model: 'gpt-4.1',
      sourceVersion: '1.0.45',
    });
    expect(gitai.turns.map((x) => [x.role, x.toolNames, x.toolErrors])).toEqual([
      ['user', [], 0],
      ['assistant', ['create'], 0],
    ]);
    expect(gitai.filesTouched).toEqual(['/Users/test/project/hello.py']);
  });

  it('reads the golden every-event-type and schema-drift fixtures', async () => {
    const small = await onlySession(sample('agent-sessions-golden-small.jsonl'));
    expect(small).toMatchObject({ sessionId: 'copilot_stage0_small', cwd: '/tmp/repo', model: 'gpt-5-mini' });
    const users = small.turns.filter((x) => x.role === 'user');
    expect(users.map((x) => x.text)).toEqual(['List the files', '[trimmed for fixture]']);
    expect(users[0]?.toolErrors).toBe(2); // two main-thread failures; the sub-agent's one is not counted
    expect(users[0]?.interrupted).toBe(true); // the abort
    expect(small.turns.map((x) => x.text)).not.toContain('System notice');

    const drift = await onlySession(sample('agent-sessions-golden-schema_drift.jsonl'));
    expect(drift.turns.map((x) => [x.role, x.text, x.toolNames])).toEqual([
      ['assistant', '', ['bash']],
      ['assistant', 'Finished.', []],
    ]);

    const large = await onlySession(sample('agent-sessions-golden-large.jsonl'));
    expect(large.model).toBe('gpt-5');
    expect(large.turns.filter((x) => x.role === 'user').map((x) => x.text)).toEqual([
      'Step 1',
      'Step 2',
      'Step 3',
    ]);
    expect(large.turns.map((x) => x.text).join('\n')).not.toContain('System notice');
  });
});
