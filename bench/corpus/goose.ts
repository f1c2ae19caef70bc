/**
 * Goose: `<home>/.local/share/goose/sessions/sessions.db` (Goose 1.10+), tables `sessions` and `messages` with
 * a JSON `content_json`: per exchange the user's text, per step an assistant message with its thinking, text
 * and tool requests and a user message with the tool responses (outputs kept, as Goose keeps them), then the
 * final answer.
 */
import path from 'node:path';
import type { WrittenSession } from './claude.js';
import { agentStore } from './agent-store.js';
import type { SessionPlan, ToolCall } from './plan.js';
import type { Rng } from './rng.js';

const SCHEMA = `CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '', session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
    created_at TIMESTAMP, updated_at TIMESTAMP, extension_data TEXT DEFAULT '{}', schedule_id TEXT,
    recipe_json TEXT, user_recipe_values_json TEXT);
  CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
    role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP,
    tokens INTEGER, metadata_json TEXT);
  CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id);`;

function toolCall(tool: ToolCall): { name: string; arguments: Record<string, unknown> } {
  switch (tool.kind) {
    case 'bash':
      return { name: 'developer__shell', arguments: { command: tool.target } };
    case 'read':
      return { name: 'developer__text_editor', arguments: { command: 'view', path: tool.target } };
    case 'edit':
      return {
        name: 'developer__text_editor',
        arguments: {
          command: 'str_replace',
          path: tool.target,
          old_str: tool.oldText,
          new_str: tool.newText,
        },
      };
    case 'write':
      return {
        name: 'developer__text_editor',
        arguments: { command: 'write', path: tool.target, file_text: tool.content },
      };
    case 'grep':
    case 'glob':
      return { name: `developer__${tool.kind}`, arguments: { pattern: tool.target } };
    case 'todo':
      return { name: 'todo__write', arguments: { items: [tool.target] } };
    default:
      return { name: 'subagent__execute_task', arguments: { task: tool.target } };
  }
}

const sqlTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const VISIBLE = JSON.stringify({ userVisible: true, agentVisible: true });

export function writeGooseSession(home: string, plan: SessionPlan, rng: Rng): WrittenSession {
  const file = path.join(home, '.local', 'share', 'goose', 'sessions', 'sessions.db');
  const db = agentStore(file, SCHEMA);
  const sessionId = `${sqlTime(plan.start).slice(0, 10).replace(/-/g, '')}_${rng.alnum(10)}`;
  const insert = db.prepare(
    'INSERT INTO messages (session_id, role, content_json, created_timestamp, timestamp, metadata_json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  let bytes = 0;
  const message = (role: string, ms: number, content: unknown[]): void => {
    const json = JSON.stringify(content);
    bytes += json.length;
    insert.run(sessionId, role, json, Math.floor(ms / 1000), sqlTime(ms), VISIBLE);
  };
  db.transaction(() => {
    db.prepare(
      "INSERT INTO sessions (id, name, session_type, working_dir, created_at, updated_at) VALUES (?, ?, 'user', ?, ?, ?)",
    ).run(
      sessionId,
      plan.exchanges[0]?.prompt.slice(0, 40) ?? '',
      plan.cwd,
      sqlTime(plan.start),
      sqlTime(plan.end),
    );
    for (const ex of plan.exchanges) {
      message('user', ex.start, [{ type: 'text', text: ex.prompt }]);
      for (const step of ex.steps) {
        const ids = step.tools.map(() => `toolu_${rng.alnum(24)}`);
        message('assistant', step.at, [
          ...(step.thinking !== ''
            ? [{ type: 'thinking', thinking: step.thinking, signature: rng.alnum(40) }]
            : []),
          ...(step.text !== '' ? [{ type: 'text', text: step.text }] : []),
          ...step.tools.map((tool, i) => ({
            type: 'toolRequest',
            id: ids[i],
            toolCall: { status: 'success', value: toolCall(tool) },
          })),
        ]);
        if (step.tools.length === 0) continue;
        message(
          'user',
          step.at + 200,
          step.tools.map((tool, i) => ({
            type: 'toolResponse',
            id: ids[i],
            toolResult:
              tool.isError || tool.rejected
                ? { status: 'error', error: tool.output }
                : {
                    status: 'success',
                    value: [{ type: 'text', text: tool.kind === 'read' ? tool.content : tool.output }],
                  },
          })),
        );
      }
      if (ex.final !== '') message('assistant', ex.end, [{ type: 'text', text: ex.final }]);
    }
  })();
  return { sessionId, path: `${file}#${sessionId}`, bytes, files: 1, prompts: plan.exchanges.length };
}
