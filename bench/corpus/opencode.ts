/**
 * OpenCode: `<home>/.local/share/opencode/opencode.db` (v1.2+), tables `session`, `message`, `part` with JSON
 * `data` columns: per exchange a user message with its text part, per step an assistant message with its
 * reasoning, text and tool parts (outputs kept, as OpenCode keeps them), then the final answer's message.
 */
import path from 'node:path';
import type { WrittenSession } from './claude.js';
import { agentStore } from './agent-store.js';
import type { SessionPlan, ToolCall } from './plan.js';
import type { Rng } from './rng.js';

const SCHEMA = `CREATE TABLE IF NOT EXISTS session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text,
    slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL,
    time_created integer NOT NULL, time_updated integer NOT NULL);
  CREATE TABLE IF NOT EXISTS message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
    time_updated integer NOT NULL, data text NOT NULL);
  CREATE TABLE IF NOT EXISTS part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
    time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
  CREATE INDEX IF NOT EXISTS message_session_time_created_id_idx ON message (session_id, time_created, id);
  CREATE INDEX IF NOT EXISTS part_message_id_id_idx ON part (message_id, id);
  CREATE INDEX IF NOT EXISTS part_session_idx ON part (session_id);`;

const TOOL_NAMES: Record<ToolCall['kind'], string> = {
  read: 'read',
  bash: 'bash',
  edit: 'edit',
  write: 'write',
  grep: 'grep',
  glob: 'glob',
  todo: 'todowrite',
  task: 'task',
};

function toolInput(tool: ToolCall): Record<string, unknown> {
  switch (tool.kind) {
    case 'bash':
      return { command: tool.target, description: 'Run it' };
    case 'read':
      return { filePath: tool.target };
    case 'edit':
      return { filePath: tool.target, oldString: tool.oldText, newString: tool.newText };
    case 'write':
      return { filePath: tool.target, content: tool.content };
    case 'grep':
    case 'glob':
      return { pattern: tool.target };
    case 'todo':
      return { todos: [{ content: tool.target, status: 'pending' }] };
    default:
      return { description: tool.target, prompt: tool.target, subagent_type: 'general' };
  }
}

export function writeOpenCodeSession(home: string, plan: SessionPlan, rng: Rng): WrittenSession {
  const file = path.join(home, '.local', 'share', 'opencode', 'opencode.db');
  const db = agentStore(file, SCHEMA);
  const sessionId = `ses_${rng.alnum(26)}`;
  const model = rng.pick(['claude-sonnet-4-5', 'gpt-5.1', 'gemini-2.5-pro']);
  const insertMessage = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
  const insertPart = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
  let bytes = 0;
  let seq = 0;
  const id = (prefix: string) => `${prefix}_${String(seq++).padStart(6, '0')}${rng.alnum(12)}`;
  const message = (ms: number, data: unknown): string => {
    const messageId = id('msg');
    const json = JSON.stringify(data);
    bytes += json.length;
    insertMessage.run(messageId, sessionId, ms, ms, json);
    return messageId;
  };
  const part = (messageId: string, ms: number, data: unknown): void => {
    const json = JSON.stringify(data);
    bytes += json.length;
    insertPart.run(id('prt'), messageId, sessionId, ms, ms, json);
  };
  db.transaction(() => {
    db.prepare('INSERT INTO session VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?)').run(
      sessionId,
      'prj',
      rng.alnum(8),
      plan.cwd,
      plan.exchanges[0]?.prompt.slice(0, 40) ?? '',
      '1.2.6',
      plan.start,
      plan.end,
    );
    for (const ex of plan.exchanges) {
      const user = message(ex.start, {
        role: 'user',
        time: { created: ex.start },
        model: { providerID: 'p', modelID: model },
      });
      part(user, ex.start, { type: 'text', text: ex.prompt });
      for (const step of ex.steps) {
        const answer = message(step.at, {
          role: 'assistant',
          time: { created: step.at, completed: step.at + 500 },
          modelID: model,
          providerID: 'p',
          path: { cwd: plan.cwd, root: plan.cwd },
        });
        if (step.thinking !== '') part(answer, step.at, { type: 'reasoning', text: step.thinking });
        if (step.text !== '') part(answer, step.at, { type: 'text', text: step.text });
        for (const tool of step.tools) {
          const failed = tool.isError || tool.rejected;
          part(answer, tool.at, {
            type: 'tool',
            tool: TOOL_NAMES[tool.kind],
            callID: `call_${rng.alnum(16)}`,
            state: {
              status: failed ? 'error' : 'completed',
              input: toolInput(tool),
              ...(failed
                ? { error: tool.output }
                : { output: tool.kind === 'read' ? tool.content : tool.output }),
              time: { start: tool.at, end: tool.at + 100 },
            },
          });
        }
      }
      const final = message(ex.end, {
        role: 'assistant',
        time: { created: ex.end },
        modelID: model,
        providerID: 'p',
        ...(ex.final === '' ? { error: { name: 'MessageAbortedError', data: { message: 'aborted' } } } : {}),
      });
      if (ex.final !== '') part(final, ex.end, { type: 'text', text: ex.final });
    }
  })();
  return { sessionId, path: `${file}#${sessionId}`, bytes, files: 1, prompts: plan.exchanges.length };
}
