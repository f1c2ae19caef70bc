/**
 * The bundled demo must teach the offline pipeline something: three recurring tasks whose first
 * attempts break a rule the user stated later in the session. This reads the demo transcripts with
 * a deliberately tiny parser (not the real harvester) and checks what the miner makes of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { HarvestedTurn } from '../../harvesters/types.js';
import { negativeWordCheck } from '../core/negative-check.js';
import { ruleChecks } from '../core/task.js';
import type { Check } from '../core/task.js';
import { correctionsToChecks } from './corrections.js';
import { mineSessions } from './mine.js';
import { userPrompts } from './normalize-intent.js';
import type { MinerSession } from './types.js';

const PROJECT = '/home/dev/acme-web';
const DEMO_DIR = fileURLToPath(
  new URL('../../templates/demo/claude/projects/-home-dev-acme-web/', import.meta.url),
);

interface Block {
  type?: string;
  text?: string;
  name?: string;
  is_error?: boolean;
}

interface DemoRecord {
  type?: string;
  isSidechain?: boolean;
  isMeta?: boolean;
  timestamp?: string;
  cwd?: string;
  sessionId?: string;
  gitBranch?: string;
  message?: { id?: string; role?: string; model?: string; content?: string | Block[] };
}

/** Just enough of a Claude transcript reader to feed the miner. */
function readDemoSession(file: string): MinerSession {
  const records = readFileSync(join(DEMO_DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DemoRecord);
  const turns: HarvestedTurn[] = [];
  const toolsUsed: string[] = [];
  let lastMessageId: string | undefined;
  for (const record of records) {
    const message = record.message;
    if (message === undefined || record.isSidechain === true || record.isMeta === true) continue;
    const ts = record.timestamp === undefined ? null : Date.parse(record.timestamp);
    const blocks: Block[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : (message.content ?? []);
    const text = blocks
      .filter((b) => b.type === 'text')
      .map((b) => b.text ?? '')
      .join('\n');
    const toolNames = blocks.filter((b) => b.type === 'tool_use').map((b) => b.name ?? '');
    toolsUsed.push(...toolNames.filter((name) => !toolsUsed.includes(name)));
    const previous = turns.at(-1);
    if (record.type === 'assistant' && previous !== undefined && message.id === lastMessageId) {
      // One API message split over several records: join it back into one turn.
      previous.text = [previous.text, text].filter((t) => t !== '').join('\n');
      previous.toolNames.push(...toolNames);
      continue;
    }
    lastMessageId = message.id;
    turns.push({
      offset: 0,
      seq: turns.length,
      role: record.type === 'assistant' ? 'assistant' : 'user',
      text,
      ts,
      toolNames,
      actions: [],
      toolErrors: blocks.filter((b) => b.type === 'tool_result' && b.is_error === true).length,
      interrupted: text.startsWith('[Request interrupted by user'),
    });
  }
  const times = records.flatMap((r) => (r.timestamp === undefined ? [] : [Date.parse(r.timestamp)]));
  const first = records.find((r) => r.sessionId !== undefined);
  return {
    source: 'claude',
    sessionId: first?.sessionId ?? '',
    cwd: records.find((r) => r.cwd !== undefined)?.cwd ?? '',
    branch: records.find((r) => r.gitBranch !== undefined)?.gitBranch ?? '',
    model: records.find((r) => r.message?.model !== undefined)?.message?.model ?? '',
    startedAt: times.length > 0 ? Math.min(...times) : null,
    endedAt: times.length > 0 ? Math.max(...times) : null,
    turns,
    toolsUsed,
    skillsUsed: [],
    filesTouched: [],
    sourcePath: join(DEMO_DIR, file),
    sourceVersion: '',
    key: `claude:${first?.sessionId ?? file}`,
    projectRoot: PROJECT,
  };
}

/** The rule judge's verdict for the two ops the miner emits. */
function passes(check: Check, answer: string): boolean {
  const arg = String(check.arg ?? '');
  if (check.op === 'contains') return answer.toLowerCase().includes(arg.toLowerCase());
  if (check.op === 'regex') {
    const caseless = arg.startsWith('(?i)');
    return new RegExp(caseless ? arg.slice(4) : arg, caseless ? 'i' : '').test(answer);
  }
  throw new Error(`unexpected op ${check.op}`);
}

const NOT_NPM: Check = { op: 'regex', arg: String.raw`(?i)^(?![\s\S]*\bnpm\b)` };
const NOT_DIST: Check = negativeWordCheck('dist/');
const EXPECTED: Record<string, Check[]> = {
  'add <code> web app': [{ op: 'contains', arg: 'pnpm' }, NOT_NPM],
  'write commit message staged changes': [{ op: 'contains', arg: 'Refs: #' }],
  'rename <code> <code> across web app': [NOT_DIST],
};

const sessionFiles = readdirSync(DEMO_DIR).filter((name) => name.endsWith('.jsonl'));
const sessions = sessionFiles.map(readDemoSession);
const mined = mineSessions(sessions, { project: PROJECT, maxTasks: 10 });
const recurring = mined.clusters.filter((cluster) => cluster.occurrences >= 4);

describe('the demo transcripts', () => {
  it('are 12-16 sessions of one project, all kept by the miner', () => {
    expect(sessions.length).toBeGreaterThanOrEqual(12);
    expect(sessions.length).toBeLessThanOrEqual(16);
    expect(new Set(sessions.map((s) => s.cwd))).toEqual(new Set([PROJECT]));
    expect(mined.dropped).toEqual({ meta: 0, short: 0, replay: 0 });
  });

  it('hold exactly three recurring tasks with at least four sessions each, ranked first', () => {
    expect(recurring.map((c) => c.normalizedIntent).sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(mined.clusters.slice(0, 3)).toEqual(recurring);
    expect(mined.clusters.slice(3).every((c) => c.occurrences === 1)).toBe(true);
  });

  it('derive the expected checks from the corrections', () => {
    for (const cluster of recurring) {
      expect(cluster.checks, cluster.normalizedIntent).toEqual(EXPECTED[cluster.normalizedIntent]);
    }
  });

  it('have first attempts that fail every check of their task', () => {
    const recurringIds = new Set(recurring.map((c) => c.id));
    const tasks = mined.tasks.filter((t) => recurringIds.has(t.derived_from));
    expect(tasks.length).toBeGreaterThanOrEqual(12);
    for (const task of tasks) {
      const checks = ruleChecks(task);
      expect(checks.length, task.intent).toBeGreaterThan(0);
      expect(task.attempted_solution, task.intent).not.toBe('');
      for (const check of checks)
        expect(passes(check, task.attempted_solution), `${task.intent}: ${check.op}`).toBe(false);
    }
  });

  it('carry the corrections in later turns of several sessions per task', () => {
    const byKey = new Map(sessions.map((s) => [s.key, s]));
    for (const cluster of recurring) {
      const correcting = cluster.members.filter((key) => {
        const later = userPrompts(byKey.get(key)?.turns ?? []).slice(1);
        return later.some((prompt) => correctionsToChecks(prompt.text).checks.length > 0);
      });
      expect(correcting.length, cluster.normalizedIntent).toBeGreaterThanOrEqual(3);
      expect(correcting.length, cluster.normalizedIntent).toBeLessThan(cluster.occurrences + 1);
    }
  });

  it('end well after the correction (order-aware outcome)', () => {
    const deps = recurring.find((c) => c.normalizedIntent === 'add <code> web app');
    expect(deps?.outcomes.success).toBe(5);
    expect(deps?.outcomes.fail).toBe(0);
  });

  it('leave the sub-agent transcript in its own folder', () => {
    const header = sessions.find((s) => s.turns.some((t) => t.toolNames.includes('Agent')));
    expect(header).toBeDefined();
    const sub = readdirSync(join(DEMO_DIR, header?.sessionId ?? '', 'subagents'));
    expect(sub).toHaveLength(1);
  });
});
