/**
 * Untrusted text end to end (issue 15, items 3 and 12): escape sequences and control characters planted
 * in transcripts and tasks files, and secrets planted in every field of a tasks file, reach none of the
 * files a night writes (store, SKILL.md, proposal.diff, report.md, report.json) nor `--json` output.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ALL_HOSTILE, HOSTILE_SEQUENCES, UNSAFE_RE } from '../helpers/hostile-text.js';
import { PERSONAS, runCli, sandbox, type Sandbox, storeBytes } from './cli-helpers.js';

const join = (...parts: string[]): string => parts.join(''); // so secret scanners skip the fixtures

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/** Every text value of every table of the store, one line per value, for control characters. */
function storeTextColumns(box: Sandbox): string {
  const db = new Database(path.join(box.stateHome, 'store.sqlite'), { readonly: true });
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
    name: string;
  }>;
  const values: string[] = [];
  for (const { name } of tables) {
    for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>) {
      for (const [column, v] of Object.entries(row))
        if (typeof v === 'string') values.push(`${name}.${column}: ${v}`);
    }
  }
  db.close();
  return values.join('\n');
}

/** Where in `text` an unsafe character sits, with a little context, for a readable failure. */
function unsafeAt(text: string): string | null {
  // Raw, or JSON-escaped as JSON.stringify writes a control character (`jq -r` would print it raw).
  const m = UNSAFE_RE.exec(text) ?? /\\u00(?:[01][0-9a-f]|7f|[89][0-9a-f])/i.exec(text);
  return m === null ? null : JSON.stringify(text.slice(Math.max(0, m.index - 30), m.index + 30));
}

/**
 * A session in Claude Code's record format: the user asks to add a package, the agent uses npm, the
 * user corrects it; hostile sequences sit in every text (prompts, replies, commands, branch).
 */
function hostileTranscript(cwd: string, id: string, minute: number, pkg: string, correction: string): string {
  const base = {
    sessionId: id,
    cwd,
    gitBranch: `main${ALL_HOSTILE}`,
    version: '2.1.0',
    userType: 'external',
  };
  const at = (s: number): string => new Date(Date.UTC(2026, 10, 20, 9, minute, s)).toISOString();
  const step = (i: number, prompt: string, reply: string, command: string | null): unknown[] => [
    {
      ...base,
      type: 'user',
      uuid: `${id}-u${i}`,
      timestamp: at(i * 4),
      message: { role: 'user', content: prompt },
    },
    {
      ...base,
      type: 'assistant',
      uuid: `${id}-a${i}`,
      timestamp: at(i * 4 + 2),
      message: {
        id: `msg_${id}_${i}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          { type: 'text', text: reply },
          ...(command === null ? [] : [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command } }]),
        ],
      },
    },
  ];
  const lines = [
    ...step(
      0,
      `add ${pkg} to the web app ${HOSTILE_SEQUENCES['OSC 52 clipboard write (BEL)']} now`,
      `Added ${pkg}. ${ALL_HOSTILE}`,
      `npm install ${pkg} ${ALL_HOSTILE}`,
    ),
    ...step(1, correction, `Redone with pnpm. ${ALL_HOSTILE}`, `pnpm add ${pkg}`),
    ...step(2, 'thanks, works now', 'Glad to help.', null),
  ];
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

function writeHostileCorpus(box: Sandbox): void {
  const dir = path.join(box.home, '.claude', 'projects', box.project.replace(/[/.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const s = HOSTILE_SEQUENCES;
  const corrections = [
    `wrong package manager: ${s['CSI screen clear']}this repo is pnpm only ${s['OSC 0 title']}`,
    `No. ${s['OSC 8 hyperlink']} Use pnpm, not npm. ${s['bidi override']}`,
    `npm again? ${s['C1 NEL']}${s['8-bit CSI']} we are on pnpm workspaces ${s['CR overwrite']} ${s.backspace}`,
  ];
  ['zod', 'dayjs', 'clsx'].forEach((pkg, i) => {
    writeFileSync(
      path.join(dir, `dep-${i}.jsonl`),
      hostileTranscript(box.project, `dep-${i}`, i * 5, pkg, corrections[i] ?? ''),
    );
  });
}

/** Asserts that nothing unsafe is in any file the night wrote, the store, or the given outputs. */
function expectNoUnsafe(box: Sandbox, outputs: Record<string, string>): void {
  const texts: Record<string, string> = { ...outputs, store: storeTextColumns(box) };
  for (const f of filesUnder(path.join(box.project, '.skillopt-sleep'))) texts[f] = readFileSync(f, 'utf8');
  for (const [where, text] of Object.entries(texts)) expect(unsafeAt(text), where).toBeNull();
}

describe('escape sequences from transcripts', () => {
  it('reach no written file after a mined night and its adoption, nor the --json output', async () => {
    const box = sandbox();
    writeHostileCorpus(box);
    // The raw transcripts do carry them (the test could fail).
    const transcripts = filesUnder(path.join(box.home, '.claude'));
    expect(
      transcripts.some((f) =>
        UNSAFE_RE.test(
          readFileSync(f, 'utf8').replace(/\\u00[0-9a-f]{2}/g, (m) => JSON.parse(`"${m}"`) as string),
        ),
      ),
    ).toBe(true);

    const run = await runCli(box, ['run', '--backend', 'mock', '--json', '--lookback-hours', '0']);
    expect(run.code, run.stderr).toBe(0);
    const night = run.json();
    expect(night.accepted).toBe(true);
    const rules = night.learned_rules as string[];
    expect(rules.join('\n')).toMatch(/pnpm/);
    const staged = String(night.staging_dir);
    expect(readdirSync(staged)).toEqual(
      expect.arrayContaining(['proposal.diff', 'report.md', 'report.json']),
    );
    expect(readFileSync(path.join(staged, 'report.md'), 'utf8')).toMatch(/pnpm/);

    const adopt = await runCli(box, ['adopt', '--json']);
    expect(adopt.code, adopt.stderr).toBe(0);
    const [skill = ''] = adopt.json().updated_paths as string[];
    const status = await runCli(box, ['status', '--json']);
    const show = await runCli(box, ['proposals', 'show', String(night.proposal_id)]);
    expectNoUnsafe(box, {
      'run --json': run.stdout,
      'adopt --json': adopt.stdout,
      'status --json': status.stdout,
      'proposals show': show.stdout,
      'SKILL.md': readFileSync(skill, 'utf8'),
    });
    expect(statSync(skill).isFile()).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------

const SECRETS = (i: number): string[] => [
  join('h', 'f_', 'FAKEENzfxHodpKORMgfzYx', 'jWtPPYqzJrv', String.fromCharCode(97 + i)),
  join('gh', 'p_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r', String(i % 10)),
  join('sk', '-proj-', 'Zq8Lm3Nv7Xc2Bn5Ws9Er4Ty6Ui1Op0As', String(i % 10)),
  join('AK', 'IA', 'QWERTYUIOPASDF', String(10 + i)),
];

function tasksWithSecrets(file: string): { file: string; planted: string[] } {
  const data = JSON.parse(readFileSync(path.join(PERSONAS, 'researcher.tasks.json'), 'utf8')) as {
    tasks: Array<Record<string, unknown>>;
  };
  const planted: string[] = [];
  data.tasks = data.tasks.map((task, i) => {
    const s = SECRETS(i);
    planted.push(...s);
    const with_ = (text: string, k: number): string =>
      `${text} token ${s[k % s.length] ?? ''} ${ALL_HOSTILE}`;
    return {
      ...task,
      id: `${String(task.id)} ${s[0] ?? ''}`,
      intent: with_(String(task.intent), 1),
      context_excerpt: with_('earlier the user pasted', 2),
      system: with_('you are a lab assistant', 3),
      attempted_solution: with_('about a thousand', 0),
      tags: [...(task.tags as string[]), with_('note', 1)],
      source_sessions: [...(task.source_sessions as string[]), with_('lab', 2)],
      derived_from: with_('lab notebook', 3),
      skill_hint: with_('units', 0),
    };
  });
  writeFileSync(file, JSON.stringify(data));
  return { file, planted };
}

describe('a tasks file with secrets and escape sequences in every field', () => {
  it('a mock night stores, stages and prints none of them', async () => {
    const box = sandbox();
    const { file, planted } = tasksWithSecrets(path.join(box.root, 'tasks.json'));
    expect(planted.every((p) => readFileSync(file, 'utf8').includes(p))).toBe(true);
    const run = await runCli(box, ['run', '--json', '--tasks-file', file]);
    expect(run.code, run.stderr).toBe(0);
    const night = run.json();
    expect(night.accepted).toBe(true);
    const staged = String(night.staging_dir);
    const reportJson = readFileSync(path.join(staged, 'report.json'), 'utf8');
    expect(reportJson).toContain('[REDACTED:');
    const outputs: Record<string, string> = { 'run --json': run.stdout };
    for (const f of filesUnder(staged)) outputs[f] = readFileSync(f, 'utf8');
    outputs.store = storeBytes(box);
    expect(outputs.store).toContain('[REDACTED:');
    for (const [where, text] of Object.entries(outputs)) {
      expect(
        planted.filter((p) => text.includes(p)),
        where,
      ).toEqual([]);
    }
    expectNoUnsafe(box, { 'run --json': run.stdout });
  });
});
