/**
 * One project's sessions from four agents (Claude Code, Codex, OpenCode, Goose), written in each agent's own
 * format: the same recurring task (add a package to the app) asked in different words in every source, and
 * the same correction ("use pnpm, not npm") given in each. A night over the project must see one task
 * kind and one lesson, each with evidence from several sources.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** A prompt, the reply and the commands the agent ran for it. */
export interface Step {
  prompt: string;
  reply: string;
  commands: string[];
}

export const CORRECTION = 'No, this repo uses pnpm, not npm. Redo it with pnpm.';

/**
 * Each source's sessions: the agent runs npm, the user corrects it, the agent redoes it with pnpm. (A session
 * done right the first time runs other commands, so the miner counts it as a task kind of its own.)
 */
const REQUESTS: Record<'claude' | 'codex' | 'opencode' | 'goose', Array<[string, string]>> = {
  claude: [
    ['add zod to the web app', 'zod'],
    ['please add dayjs to the web app, the date picker needs it', 'dayjs'],
  ],
  codex: [
    ['add clsx to the web app for the buttons', 'clsx'],
    ['can you add nanoid to the web app?', 'nanoid'],
  ],
  opencode: [
    ['add the ky package to the web app', 'ky'],
    ['add immer to the web app and update the lockfile', 'immer'],
  ],
  goose: [
    ['the web app needs lodash-es, add it', 'lodash-es'],
    ['add date-fns to the web app', 'date-fns'],
  ],
};

function steps(request: string, pkg: string): Step[] {
  return [
    { prompt: request, reply: `Added ${pkg}.`, commands: ['cat package.json', `npm install ${pkg}`] },
    { prompt: CORRECTION, reply: 'Redone with pnpm.', commands: [`pnpm add ${pkg}`] },
    { prompt: 'thanks, works now', reply: 'Glad to help.', commands: [] },
  ];
}

const at = (day: number, minute: number, second: number): number =>
  Date.UTC(2026, 10, 20 + day, 9, minute, second);

/** Writes the corpus; returns every session as `<source>:<id>`. */
export function writeCrossSourceCorpus(home: string, project: string): string[] {
  const all: string[] = [];
  const note = (key: string) => all.push(key);
  REQUESTS.claude.forEach(([request, pkg], i) => {
    const id = `c1a0de00-0000-4000-8000-00000000000${i}`;
    writeClaude(home, project, id, steps(request, pkg), 0, i * 10);
    note(`claude:${id}`);
  });
  REQUESTS.codex.forEach(([request, pkg], i) => {
    const id = `019b0000-0000-7000-8000-00000000000${i}`;
    writeCodex(home, project, id, steps(request, pkg), 1, i * 10);
    note(`codex:${id}`);
  });
  const openCode = openCodeStore(home);
  REQUESTS.opencode.forEach(([request, pkg], i) => {
    const id = `ses_0c0de${i}`;
    writeOpenCode(openCode, project, id, steps(request, pkg), 2, i * 10);
    note(`opencode:${id}`);
  });
  openCode.close();
  const goose = gooseStore(home);
  REQUESTS.goose.forEach(([request, pkg], i) => {
    const id = `20261123_${i + 1}`;
    writeGoose(goose, project, id, steps(request, pkg), 3, i * 10);
    note(`goose:${id}`);
  });
  goose.close();
  return all;
}

const jsonl = (records: unknown[]): string => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

function writeClaude(
  home: string,
  cwd: string,
  id: string,
  script: Step[],
  day: number,
  minute: number,
): void {
  const dir = path.join(home, '.claude', 'projects', cwd.replace(/[/.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const base = { sessionId: id, cwd, gitBranch: 'main', version: '2.1.0', userType: 'external' };
  const lines = script.flatMap((step, i) => [
    {
      ...base,
      type: 'user',
      uuid: `${id}-u${i}`,
      timestamp: new Date(at(day, minute, i * 4)).toISOString(),
      message: { role: 'user', content: step.prompt },
    },
    {
      ...base,
      type: 'assistant',
      uuid: `${id}-a${i}`,
      timestamp: new Date(at(day, minute, i * 4 + 2)).toISOString(),
      message: {
        id: `msg_${id}_${i}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          { type: 'text', text: step.reply },
          ...step.commands.map((command, j) => ({
            type: 'tool_use',
            id: `t${i}${j}`,
            name: 'Bash',
            input: { command },
          })),
        ],
      },
    },
  ]);
  writeFileSync(path.join(dir, `${id}.jsonl`), jsonl(lines));
}

function writeCodex(
  home: string,
  cwd: string,
  id: string,
  script: Step[],
  day: number,
  minute: number,
): void {
  const start = new Date(at(day, minute, 0));
  const dir = path.join(home, '.codex', 'sessions', '2026', '11', String(20 + day));
  mkdirSync(dir, { recursive: true });
  const stamp = (s: number) => new Date(at(day, minute, s)).toISOString();
  const records: unknown[] = [
    {
      timestamp: stamp(0),
      type: 'session_meta',
      payload: { id, timestamp: stamp(0), cwd, originator: 'codex_cli_rs', cli_version: '0.60.0' },
    },
  ];
  script.forEach((step, i) => {
    records.push({
      timestamp: stamp(i * 4),
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: step.prompt }] },
    });
    step.commands.forEach((command, j) =>
      records.push({
        timestamp: stamp(i * 4 + 1),
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'shell',
          arguments: JSON.stringify({ command: ['bash', '-lc', command] }),
          call_id: `call_${i}_${j}`,
        },
      }),
    );
    records.push({
      timestamp: stamp(i * 4 + 2),
      type: 'response_item',
      payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: step.reply }] },
    });
  });
  const name = `rollout-${start.toISOString().slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`;
  writeFileSync(path.join(dir, name), jsonl(records));
}

function openCodeStore(home: string): Database.Database {
  const file = path.join(home, '.local', 'share', 'opencode', 'opencode.db');
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.exec(`CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL,
      directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL,
      time_updated integer NOT NULL);
    CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
      time_updated integer NOT NULL, data text NOT NULL);
    CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
      time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
    CREATE INDEX part_session_idx ON part (session_id);`);
  return db;
}

function writeOpenCode(
  db: Database.Database,
  cwd: string,
  id: string,
  script: Step[],
  day: number,
  minute: number,
): void {
  const end = at(day, minute, script.length * 4);
  db.prepare('INSERT INTO session VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?)').run(
    id,
    'prj',
    id,
    cwd,
    'deps',
    '1.2.6',
    at(day, minute, 0),
    end,
  );
  const message = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
  const part = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
  script.forEach((step, i) => {
    const asked = at(day, minute, i * 4);
    const answered = at(day, minute, i * 4 + 2);
    message.run(
      `msg_${id}_u${i}`,
      id,
      asked,
      asked,
      JSON.stringify({ role: 'user', time: { created: asked } }),
    );
    part.run(
      `prt_${id}_u${i}`,
      `msg_${id}_u${i}`,
      id,
      asked,
      asked,
      JSON.stringify({ type: 'text', text: step.prompt }),
    );
    const data = {
      role: 'assistant',
      time: { created: answered },
      modelID: 'claude-sonnet-4-5',
      path: { cwd, root: cwd },
    };
    message.run(`msg_${id}_a${i}`, id, answered, answered, JSON.stringify(data));
    step.commands.forEach((command, j) =>
      part.run(
        `prt_${id}_a${i}_t${j}`,
        `msg_${id}_a${i}`,
        id,
        answered,
        answered,
        JSON.stringify({
          type: 'tool',
          tool: 'bash',
          callID: `c${i}${j}`,
          state: { status: 'completed', input: { command } },
        }),
      ),
    );
    part.run(
      `prt_${id}_a${i}_z`,
      `msg_${id}_a${i}`,
      id,
      answered,
      answered,
      JSON.stringify({ type: 'text', text: step.reply }),
    );
  });
}

function gooseStore(home: string): Database.Database {
  const file = path.join(home, '.local', 'share', 'goose', 'sessions', 'sessions.db');
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
      created_at TIMESTAMP, updated_at TIMESTAMP, schedule_id TEXT);
    CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
      content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP, metadata_json TEXT);
    CREATE INDEX idx_messages_session ON messages(session_id);`);
  return db;
}

function writeGoose(
  db: Database.Database,
  cwd: string,
  id: string,
  script: Step[],
  day: number,
  minute: number,
): void {
  const sqlTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  db.prepare(
    "INSERT INTO sessions (id, session_type, working_dir, created_at, updated_at) VALUES (?, 'user', ?, ?, ?)",
  ).run(id, cwd, sqlTime(at(day, minute, 0)), sqlTime(at(day, minute, script.length * 4)));
  const insert = db.prepare(
    'INSERT INTO messages (session_id, role, content_json, created_timestamp, timestamp) VALUES (?, ?, ?, ?, ?)',
  );
  script.forEach((step, i) => {
    const asked = at(day, minute, i * 4);
    const answered = at(day, minute, i * 4 + 2);
    insert.run(
      id,
      'user',
      JSON.stringify([{ type: 'text', text: step.prompt }]),
      asked / 1000,
      sqlTime(asked),
    );
    const content = [
      { type: 'text', text: step.reply },
      ...step.commands.map((command, j) => ({
        type: 'toolRequest',
        id: `toolu_${i}${j}`,
        toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command } } },
      })),
    ];
    insert.run(id, 'assistant', JSON.stringify(content), answered / 1000, sqlTime(answered));
  });
}
