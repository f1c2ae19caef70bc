/**
 * A Gemini CLI chat (`records.ts`: its metadata and messages) as a `HarvestedSession`. Message types:
 * `user` (a prompt, or, since v0.39, the tool results sent back), `gemini` (an answer with its
 * `toolCalls`), and `info`/`warning`/`error` (what the UI showed, e.g. "Request cancelled.").
 */
import path from 'node:path';
import { hasActionRoom } from '../shared/actions.js';
import {
  finishTurns,
  isRecord,
  OrderedSet,
  parseUtcMs,
  type TurnDraft,
  emptyTurnDraft,
} from '../shared/values.js';
import { filePath, geminiToolAction, toolPaths } from './actions.js';
import type { ChatRecord, GeminiMessage } from './records.js';
import type { HarvestedSession } from '../../src/core/session.js';

const MAX_FILES_TOUCHED = 50;
/** What Gemini shows when the user stops an answer (useGeminiStream). */
const CANCELLED = 'Request cancelled.';
/** The model turn a compression adds after its summary (chatCompressionService). */
const COMPRESSION_ACK = 'Got it. Thanks for the additional context!';
/** Tools whose argument names the skill the agent took up. */
const SKILL_TOOL = 'activate_skill';

export interface ChatMeta {
  sessionId: string;
  cwd: string;
  sourcePath: string;
}

/** The session the chat holds, or undefined for a sub-agent's chat or one without a turn. */
export function chatToSession(chat: ChatRecord, meta: ChatMeta): HarvestedSession | undefined {
  if (chat.meta['kind'] === 'subagent') return undefined; // an agent's prompts, not the user's
  const draft = new SessionDraft();
  draft.widen(parseUtcMs(chat.meta['startTime']));
  draft.widen(parseUtcMs(chat.meta['lastUpdated']));
  for (const message of chat.messages.values()) draft.apply(message);
  const turns = finishTurns(draft.turns);
  if (turns.length === 0) return undefined;
  return {
    source: 'gemini',
    sessionId: meta.sessionId,
    cwd: meta.cwd,
    branch: '',
    model: draft.model,
    startedAt: draft.startedAt,
    endedAt: draft.endedAt,
    turns,
    toolsUsed: draft.toolsUsed.values(),
    skillsUsed: draft.skillsUsed.values(),
    filesTouched: draft.filesTouched.values(),
    sourcePath: meta.sourcePath,
    sourceVersion: '',
  };
}

/** Absolute paths the chat's tool calls name: where the project hash may be found (`project-root.ts`). */
export function chatToolPaths(chat: ChatRecord): string[] {
  const found: string[] = [];
  for (const message of chat.messages.values())
    for (const call of toolCalls(message)) found.push(...toolPaths(call.args).filter(isAbsolute));
  return found;
}

const isAbsolute = (p: string): boolean => path.posix.isAbsolute(p) || path.win32.isAbsolute(p);

class SessionDraft {
  turns: TurnDraft[] = [];
  model = '';
  startedAt: number | null = null;
  endedAt: number | null = null;
  toolsUsed = new OrderedSet();
  skillsUsed = new OrderedSet();
  filesTouched = new OrderedSet(MAX_FILES_TOUCHED);
  private lastUser: TurnDraft | undefined;
  /** A compression summary was the last user message: its acknowledgement is no answer either. */
  private afterSummary = false;

  widen(ts: number | null): void {
    if (ts == null) return;
    this.startedAt = this.startedAt == null ? ts : Math.min(this.startedAt, ts);
    this.endedAt = this.endedAt == null ? ts : Math.max(this.endedAt, ts);
  }

  apply(message: GeminiMessage): void {
    const ts = parseUtcMs(message['timestamp']);
    this.widen(ts);
    const type = message['type'];
    if (type === 'user') this.applyUser(message, ts);
    else if (type === 'gemini') this.applyAnswer(message, ts);
    else if (type === 'info' && partsText(message['content']).trim() === CANCELLED) this.interrupt();
    if (type !== 'user') this.afterSummary = false;
  }

  private applyUser(message: GeminiMessage, ts: number | null): void {
    const content = message['content'];
    if (hasFunctionResponse(content)) return; // tool results sent back to the model
    const sent = partsText(content).trim();
    this.afterSummary = sent.includes('<state_snapshot>');
    if (isInjected(sent) || this.afterSummary) return;
    // What the user typed (`@file` expanded in `content` is not); the UI shows the same.
    const text = partsText(message['displayContent']).trim() || sent;
    const turn = emptyTurnDraft('user', ts);
    turn.textParts.push(text);
    this.turns.push(turn);
    this.lastUser = turn;
  }

  private applyAnswer(message: GeminiMessage, ts: number | null): void {
    const text = partsText(message['content']).trim();
    if (this.afterSummary && text === COMPRESSION_ACK) return;
    const turn = emptyTurnDraft('assistant', ts);
    if (text !== '') turn.textParts.push(text);
    const model = typeof message['model'] === 'string' ? message['model'].trim() : '';
    this.model ||= model;
    for (const call of toolCalls(message)) {
      turn.toolNames.push(call.name);
      this.toolsUsed.add(call.name);
      if (hasActionRoom(turn.actions)) turn.actions.push(geminiToolAction(call.name, call.args));
      this.noteCall(call);
    }
    this.turns.push(turn);
  }

  private noteCall(call: ToolCall): void {
    if (call.name === SKILL_TOOL && typeof call.args['name'] === 'string' && call.args['name'].trim())
      this.skillsUsed.add(call.args['name'].trim());
    const file = filePath(call.args).trim();
    if (file !== '') this.filesTouched.add(file);
    if (call.status === 'error') {
      if (this.lastUser) this.lastUser.toolErrors++;
    } else if (call.status === 'cancelled') this.interrupt();
  }

  private interrupt(): void {
    if (this.lastUser) this.lastUser.interrupted = true;
  }
}

interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  status: string;
}

/**
 * The message's tool calls: `toolCalls` (with their arguments and status), else the `functionCall`
 * parts of its content (a message written before its calls were recorded).
 */
function toolCalls(message: GeminiMessage): ToolCall[] {
  const recorded = Array.isArray(message['toolCalls']) ? message['toolCalls'].filter(isRecord) : [];
  const calls = recorded.length > 0 ? recorded : functionCalls(message['content']);
  const out: ToolCall[] = [];
  for (const call of calls) {
    const name = typeof call['name'] === 'string' ? call['name'].trim() : '';
    if (name === '') continue;
    const args = isRecord(call['args']) ? call['args'] : {};
    out.push({ name, args, status: typeof call['status'] === 'string' ? call['status'] : '' });
  }
  return out;
}

function functionCalls(content: unknown): Record<string, unknown>[] {
  if (!Array.isArray(content)) return [];
  return content
    .filter(isRecord)
    .map((part) => part['functionCall'])
    .filter(isRecord);
}

/** A string, or the text of its parts (a part, or a list of them); thoughts are not text. */
export function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part) =>
      typeof part === 'string' ? part : isRecord(part) && part['thought'] !== true ? part['text'] : '',
    )
    .filter((text): text is string => typeof text === 'string' && text !== '')
    .join('');
}

function hasFunctionResponse(content: unknown): boolean {
  return (
    Array.isArray(content) && content.some((part) => isRecord(part) && isRecord(part['functionResponse']))
  );
}

/**
 * Not typed by the user: Gemini's own rule for what a resume skips (`isIgnoredUserContent`: empty,
 * a slash command or `?` help, the `<session_context>` and `<hook_context>` it injects).
 */
export function isInjected(text: string): boolean {
  return (
    text === '' ||
    text.startsWith('/') ||
    text.startsWith('?') ||
    text.startsWith('<session_context>') ||
    text.startsWith('<hook_context>')
  );
}
