/**
 * One OpenCode session, read from either store (`store.ts`, `storage.ts`), as a `HarvestedSession`. Shapes:
 * packages/opencode/src/session/message-v2.ts in sst/opencode. A message's `data` is `{role, time:{created},
 * modelID | model:{modelID}, error?, summary?}`; its parts are `text` (`synthetic` when OpenCode wrote it,
 * `ignored` when left out of the model's context), `tool` (`tool`, `state:{status, input}`), `subtask` (a
 * command run by a sub-agent: `command`, `prompt`), `reasoning`, `file`, `compaction`, `step-*`, `patch`...
 */
import { hasActionRoom, pushActions } from '../shared/actions.js';
import {
  finishTurns,
  isRecord,
  OrderedSet,
  parseUtcMs,
  type TurnDraft,
  emptyTurnDraft,
} from '../shared/values.js';
import { openCodeToolActions, openCodeToolFile } from './actions.js';
import type { HarvestedSession } from '../../src/core/session.js';

const MAX_FILES_TOUCHED = 50;

export interface OpenCodeMessage {
  id: string;
  data: Record<string, unknown>;
  parts: Record<string, unknown>[];
}

export interface OpenCodeConversation {
  id: string;
  directory: string;
  /** Set for a sub-agent's session (the `task` tool's child): no person typed its prompts. */
  parentId: string;
  version: string;
  createdMs: number | null;
  updatedMs: number | null;
  /** In the order OpenCode shows them (by creation time, then id). */
  messages: OpenCodeMessage[];
}

export function buildOpenCodeSession(
  conversation: OpenCodeConversation,
  sourcePath: string,
): HarvestedSession | undefined {
  if (conversation.parentId !== '') return undefined;
  const builder = new SessionBuilder();
  builder.widen(conversation.createdMs);
  builder.widen(conversation.updatedMs);
  for (const message of conversation.messages) builder.apply(message);
  const turns = finishTurns(builder.turns);
  if (!turns.some((t) => t.role === 'user')) return undefined;
  return {
    source: 'opencode',
    sessionId: conversation.id,
    cwd: conversation.directory || builder.cwd,
    branch: '',
    model: builder.model,
    startedAt: builder.startedAt,
    endedAt: builder.endedAt,
    turns,
    toolsUsed: builder.toolsUsed.values(),
    skillsUsed: builder.skillsUsed.values(),
    filesTouched: builder.filesTouched.values(),
    sourcePath,
    sourceVersion: conversation.version,
  };
}

class SessionBuilder {
  turns: TurnDraft[] = [];
  cwd = '';
  model = '';
  startedAt: number | null = null;
  endedAt: number | null = null;
  toolsUsed = new OrderedSet();
  skillsUsed = new OrderedSet();
  filesTouched = new OrderedSet(MAX_FILES_TOUCHED);
  private lastUser: TurnDraft | undefined;
  private pendingErrors = 0;
  private pendingInterrupt = false;

  apply(message: OpenCodeMessage): void {
    const data = message.data;
    const time = isRecord(data['time']) ? data['time'] : {};
    const ts = parseUtcMs(time['created']);
    this.widen(ts);
    this.widen(parseUtcMs(time['completed']));
    if (data['role'] === 'user') this.applyPrompt(message, ts);
    else if (data['role'] === 'assistant') this.applyAnswer(message, ts);
  }

  private applyPrompt(message: OpenCodeMessage, ts: number | null): void {
    const texts: string[] = [];
    for (const part of message.parts) {
      if (part['type'] === 'text' && part['synthetic'] !== true && part['ignored'] !== true) {
        const text = typeof part['text'] === 'string' ? part['text'].trim() : '';
        if (text !== '') texts.push(text);
      } else if (
        part['type'] === 'subtask' &&
        typeof part['command'] === 'string' &&
        part['command'] !== ''
      ) {
        // A command OpenCode handed to a sub-agent: the user typed the command, the prompt is its template.
        texts.push(`/${part['command'].trim()}`);
      }
    }
    this.noteModel(message.data['model']);
    if (texts.length === 0) return; // compaction requests, OpenCode's own reminders
    const turn = emptyTurnDraft('user', ts);
    turn.textParts.push(texts.join('\n'));
    turn.toolErrors = this.pendingErrors;
    turn.interrupted = this.pendingInterrupt;
    this.pendingErrors = 0;
    this.pendingInterrupt = false;
    this.turns.push(turn);
    this.lastUser = turn;
  }

  private applyAnswer(message: OpenCodeMessage, ts: number | null): void {
    const data = message.data;
    if (data['summary'] === true) return; // the summary a compaction wrote, not an answer
    if (typeof data['modelID'] === 'string') this.model ||= data['modelID'].trim();
    this.noteModel(data['model']);
    if (isRecord(data['path']) && typeof data['path']['cwd'] === 'string') this.cwd ||= data['path']['cwd'];
    const turn = emptyTurnDraft('assistant', ts);
    for (const part of message.parts) {
      if (part['type'] === 'text' && part['synthetic'] !== true) {
        const text = typeof part['text'] === 'string' ? part['text'].trim() : '';
        if (text !== '') turn.textParts.push(text);
      } else if (part['type'] === 'tool' && typeof part['tool'] === 'string' && part['tool'].trim() !== '') {
        this.applyTool(turn, part['tool'].trim(), isRecord(part['state']) ? part['state'] : {});
      }
    }
    const error = isRecord(data['error']) ? data['error'] : undefined;
    if (error?.['name'] === 'MessageAbortedError') this.noteInterrupt();
    else if (error !== undefined) this.noteError();
    this.turns.push(turn);
  }

  private applyTool(turn: TurnDraft, name: string, state: Record<string, unknown>): void {
    turn.toolNames.push(name);
    this.toolsUsed.add(name);
    const input = state['input'];
    if (hasActionRoom(turn.actions)) pushActions(turn.actions, openCodeToolActions(name, input));
    const file = openCodeToolFile(name, input);
    if (file !== '') this.filesTouched.add(file);
    if (name === 'skill' && isRecord(input) && typeof input['name'] === 'string' && input['name'].trim())
      this.skillsUsed.add(input['name'].trim());
    if (state['status'] === 'error') this.noteError();
  }

  private noteModel(model: unknown): void {
    if (isRecord(model) && typeof model['modelID'] === 'string') this.model ||= model['modelID'].trim();
  }

  private noteError(): void {
    if (this.lastUser) this.lastUser.toolErrors++;
    else this.pendingErrors++;
  }

  private noteInterrupt(): void {
    if (this.lastUser) this.lastUser.interrupted = true;
    else this.pendingInterrupt = true;
  }

  widen(ts: number | null): void {
    if (ts == null) return;
    this.startedAt = this.startedAt == null ? ts : Math.min(this.startedAt, ts);
    this.endedAt = this.endedAt == null ? ts : Math.max(this.endedAt, ts);
  }
}
