import { describe, expect, it } from 'vitest';
import { proposeTasksVars } from '../backends/llm/llm-backend.js';
import { renderPrompt } from '../backends/llm/prompts.js';
import { configSchema } from '../config/schema.js';
import { sha256Hex } from '../core/hash.js';
import { emptyTask } from '../core/task.js';
import { clusterDigest } from '../miner/llm-miner.js';
import { labelText } from '../miner/model/label-sessions.js';
import type { Cluster } from '../miner/types.js';
import { memorySessionLabels } from '../store/session-labels-repo.js';
import { explainMining } from './explain-mining.js';
import type { MinedProject } from './mine-project.js';

const cluster: Cluster = {
  label: 'add dependency',
  id: 'task_abc',
  normalizedIntent: 'add zod',
  intent: 'add zod to the web app',
  members: ['claude:s1', 'claude:s2'],
  occurrences: 2,
  firstSeen: null,
  lastSeen: null,
  outcomes: { success: 1, fail: 1, mixed: 0, unknown: 0 },
  checks: [],
  corrections: [],
  correctionReports: [
    {
      sessionKey: 'claude:s2',
      sentence: 'keep the lockfile committed',
      result: 'none',
      checks: [],
      reason: '',
      rejected: 'npm install dayjs',
      accepted: 'pnpm add dayjs',
    },
  ],
  criteria: [],
  checkSources: [],
};

const instance = (key: string, intent: string) =>
  emptyTask({
    id: `inst_${key}`,
    intent,
    derived_from: cluster.id,
    source_sessions: [key],
    attempted_solution: 'npm install zod',
  });

const mined = (): MinedProject => ({
  clusters: [cluster],
  lessons: [],
  instances: [instance('claude:s1', 'add zod to the web app'), instance('claude:s2', 'add dayjs please')],
  archive: [],
  nSessions: 2,
  sessionsLeftOut: 0,
  activeSince: null,
  funnel: { window: null, mined: 2, active: 2 },
  sessions: [],
  sessionsWithTurns: () => [],
});

const config = (over: Record<string, unknown>) => configSchema.parse({ backend: 'openai', ...over });

describe('explainMining', () => {
  it('lists nothing when llm_mine is off', () => {
    const kinds = explainMining({
      mined: mined(),
      project: '/p',
      config: config({ llm_mine: false }),
      labels: memorySessionLabels(),
    });
    expect(kinds).toEqual([]);
  });

  it("lists the miner's digest as the mine-tasks prompt holds it", () => {
    const kinds = explainMining({
      mined: mined(),
      project: '/p',
      config: config({}),
      labels: memorySessionLabels(),
    });
    expect(kinds.map((k) => [k.id, k.label, k.sends.map((s) => s.prompt)])).toEqual([
      ['task_abc', 'add dependency', ['mine-tasks']],
    ]);
    const prompt = renderPrompt(
      'mine-tasks',
      proposeTasksVars(clusterDigest('/p', cluster, mined().instances)),
    ).user;
    const texts = kinds[0]?.sends[0]?.texts ?? [];
    expect(texts.map((t) => t.field)).toEqual([
      "project folder's name",
      'intents (wordings, newest first)',
      'corrections',
      "attempted_solution (the agent's latest first answer)",
      'outcome counts',
    ]);
    for (const t of texts) expect(prompt).toContain(t.text);
    expect(texts[1]?.text).toBe('- add dayjs please\n- add zod to the web app');
  });

  it('with llm_refine: the requests of sessions not labelled before, and the unchecked correction', () => {
    const labels = memorySessionLabels();
    labels.put([
      { sessionKey: 'claude:s1', textHash: sha256Hex(labelText('add zod to the web app')), label: 'x' },
    ]);
    const kinds = explainMining({
      mined: mined(),
      project: '/p',
      config: config({ llm_refine: true }),
      labels,
    });
    const sends = kinds[0]?.sends ?? [];
    expect(sends.map((s) => s.prompt)).toEqual(['label-sessions', 'rule-from-correction', 'mine-tasks']);
    expect(sends[0]?.texts.map((t) => t.text)).toEqual(['add dayjs please']);
    expect(sends[1]?.texts.map((t) => [t.field, t.text])).toEqual([
      ['kind label', 'add dependency'],
      ['correction', 'keep the lockfile committed'],
      ['the answer the user corrected', 'npm install dayjs'],
      ['the answer the user accepted', 'pnpm add dayjs'],
    ]);
  });
});
