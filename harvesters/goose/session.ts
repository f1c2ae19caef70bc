/**
 * One Goose session, from its SQLite store (`store.ts`) or a legacy `.jsonl` file (`goose.ts`), as a
 * `HarvestedSession`. A message (crates/goose/src/conversation/message.rs in block/goose) is
 * `{role, created (epoch s), content: [...], metadata: {userVisible, agentVisible}}`; content items are
 * `text`, `toolRequest` (`toolCall: {status, value: {name, arguments}}`), `toolResponse` (the tool's result,
 * sent back as a `user` message), `thinking`, `redactedThinking`, `image`, `systemNotification`, … A message
 * the user never sees (`userVisible: false`: a compaction's summary, a continuation Goose added) is no turn.
 */
import { hasActionRoom } from '../shared/actions.js';
import {
  finishTurns,
  isRecord,
  OrderedSet,
  parseUtcMs,
  type TurnDraft,
  emptyTurnDraft,
} from '../shared/values.js';
import { gooseToolAction, gooseToolFile } from './actions.js';
import type { HarvestedSession } from '../../src/core/session.js';

const MAX_FILES_TOUCHED = 50;

export interface GooseConversation {
  id: string;
  workingDir: string;
  createdMs: number | null;
  updatedMs: number | null;
  messages: Record<string, unknown>[];
}

export function buildGooseSession(
  conversation: GooseConversation,
  sourcePath: string,
): HarvestedSession | undefined {
  const builder = new SessionBuilder();
  builder.widen(conversation.createdMs);
  builder.widen(conversation.updatedMs);
  for (const message of conversation.messages) builder.apply(message);
  const turns = finishTurns(builder.turns);
  if (!turns.some((t) => t.role === 'user')) return undefined;
  return {
    source: 'goose',
    sessionId: conversation.id,
    cwd: conversation.workingDir,
    branch: '',
    model: '',
    startedAt: builder.startedAt,
    endedAt: builder.endedAt,
    turns,
    toolsUsed: builder.toolsUsed.values(),
    skillsUsed: [],
    filesTouched: builder.filesTouched.values(),
    sourcePath,
    sourceVersion: '',
  };
}

class SessionBuilder {
  turns: TurnDraft[] = [];
  startedAt: number | null = null;
  endedAt: number | null = null;
  toolsUsed = new OrderedSet();
  filesTouched = new OrderedSet(MAX_FILES_TOUCHED);
  private lastUser: TurnDraft | undefined;
  private pendingErrors = 0;

  apply(message: Record<string, unknown>): void {
    const ts = parseUtcMs(message['created']);
    this.widen(ts);
    const metadata = isRecord(message['metadata']) ? message['metadata'] : {};
    if (metadata['userVisible'] === false) return;
    const content = Array.isArray(message['content']) ? message['content'].filter(isRecord) : [];
    if (message['role'] === 'user') this.applyUser(content, ts);
    else if (message['role'] === 'assistant') this.applyAnswer(content, ts);
  }

  private applyUser(content: Record<string, unknown>[], ts: number | null): void {
    const texts: string[] = [];
    for (const item of content) {
      if (item['type'] === 'text' && typeof item['text'] === 'string' && item['text'].trim() !== '')
        texts.push(item['text'].trim());
      else if (item['type'] === 'toolResponse' && isFailedResult(item['toolResult'])) this.noteError();
    }
    if (texts.length === 0) return; // tool results only: the agent's, not a prompt
    const turn = emptyTurnDraft('user', ts);
    turn.textParts.push(texts.join('\n'));
    turn.toolErrors = this.pendingErrors;
    this.pendingErrors = 0;
    this.turns.push(turn);
    this.lastUser = turn;
  }

  private applyAnswer(content: Record<string, unknown>[], ts: number | null): void {
    const turn = emptyTurnDraft('assistant', ts);
    for (const item of content) {
      if (item['type'] === 'text' && typeof item['text'] === 'string' && item['text'].trim() !== '')
        turn.textParts.push(item['text'].trim());
      else if (item['type'] === 'toolRequest' || item['type'] === 'frontendToolRequest')
        this.applyTool(turn, item);
    }
    this.turns.push(turn);
  }

  private applyTool(turn: TurnDraft, item: Record<string, unknown>): void {
    const call = isRecord(item['toolCall']) ? item['toolCall'] : {};
    const value = isRecord(call['value']) ? call['value'] : {};
    const name = typeof value['name'] === 'string' ? value['name'].trim() : '';
    if (name === '') return; // a call the model got wrong has no name, only an error
    turn.toolNames.push(name);
    this.toolsUsed.add(name);
    if (hasActionRoom(turn.actions)) turn.actions.push(gooseToolAction(name, value['arguments']));
    const file = gooseToolFile(name, value['arguments']);
    if (file !== '') this.filesTouched.add(file);
  }

  private noteError(): void {
    if (this.lastUser) this.lastUser.toolErrors++;
    else this.pendingErrors++;
  }

  widen(ts: number | null): void {
    if (ts == null) return;
    this.startedAt = this.startedAt == null ? ts : Math.min(this.startedAt, ts);
    this.endedAt = this.endedAt == null ? ts : Math.max(this.endedAt, ts);
  }
}

/** `{status: "error"}`, or a result the tool itself marked `isError` (`value.isError`, MCP's flag). */
function isFailedResult(result: unknown): boolean {
  if (!isRecord(result)) return false;
  if (result['status'] === 'error') return true;
  return isRecord(result['value']) && result['value']['isError'] === true;
}
