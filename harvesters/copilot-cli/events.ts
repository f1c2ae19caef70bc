/**
 * GitHub Copilot CLI `events.jsonl` streams: `session-state/<id>/events.jsonl` (v1.0.11+) and the
 * legacy flat `session-state/<id>.jsonl`. One event per line:
 * `{"type","data":{…},"id","timestamp","parentId"}`; harvest-spec §5.3 and the copilot-sdk
 * session-events schema describe the types. Append-only, so parsing resumes from a byte offset.
 */
import { IoError, errorMessage } from '../../src/core/errors.js';
import { readJsonlLines } from '../../src/core/io/jsonl.js';
import { isRecord, parseUtcMs, trimmedString, userPromptText, widenRange } from './common.js';
import {
  type DraftTurn,
  fillFromWorkspaceYaml,
  finishSession,
  modelName,
  newDraft,
  newTurn,
  noteModifiedFiles,
  noteSelectedModel,
  noteSessionContext,
  noteSkill,
  type SessionDraft,
} from './session.js';
import { hasActionRoom, pushActions } from '../shared/actions.js';
import { copilotToolActions, parseArguments } from '../shared/copilot-tool-actions.js';
import type { FileParse, ParseOptions } from '../types.js';
import type { SourceFile } from '../../src/core/session.js';

/** When resuming mid-file, the session header is looked for in this many leading lines. */
const HEADER_SCAN_LINES = 20;
const FILE_PATH_KEYS = ['path', 'file_path', 'filePath'] as const;
/**
 * `user.message.data.source` names who wrote a message that is not the user's: `skill-<name>`
 * (hidden skill injection), `agent-<id>` (inter-agent prompt), and runtime senders. Only these
 * prefixes are dropped, so an unknown new value loses nothing.
 */
const INJECTED_SOURCE = /^(?:skill-|agent-|system|autopilot|schedule|notification|hook)/i;
/** A tool call the user declined (an interrupt of the exchange), rather than one that failed. */
const REJECTED_TOOL = /reject/i;

/** Parses one events file from `fromOffset`; a file is one session (its `session.start` id). */
export function parseEventsFile(file: SourceFile, fromOffset: number, options: ParseOptions = {}): FileParse {
  const draft = newDraft(file.path);
  let badLines = 0;
  let endOffset = Math.max(0, fromOffset);
  try {
    if (endOffset > 0) readSessionHeader(file.path, endOffset, draft);
    for (const line of readJsonlLines(file.path, endOffset, options)) {
      endOffset = line.endOffset;
      if (line.bad || !isRecord(line.value)) {
        badLines++;
        continue;
      }
      applyEvent(draft, line.value, line.offset);
    }
  } catch (err) {
    throw new IoError(`Cannot read Copilot CLI events ${file.path}: ${errorMessage(err)}`);
  }
  if (draft.cwd === '' || draft.branch === '') fillFromWorkspaceYaml(file.path, draft);
  const session = finishSession(draft, file.path);
  return { sessions: session ? [session] : [], badLines, endOffset };
}

/** Resuming mid-file skips `session.start`; its id, cwd and version are read from the first lines. */
function readSessionHeader(filePath: string, fromOffset: number, draft: SessionDraft): void {
  let scanned = 0;
  for (const line of readJsonlLines(filePath, 0)) {
    if (line.offset >= fromOffset || ++scanned > HEADER_SCAN_LINES) break;
    const record = line.value;
    if (!isRecord(record) || !isRecord(record['data'])) continue;
    if (record['type'] === 'session.start' || record['type'] === 'session.resume') {
      noteSessionContext(draft, record['data']);
    }
  }
}

function applyEvent(draft: SessionDraft, record: Record<string, unknown>, offset: number): void {
  // Transient events are not meant to be on disk; if one is, it repeats what a durable one says.
  if (record['ephemeral'] === true) return;
  const data = isRecord(record['data']) ? record['data'] : {};
  const ts = parseUtcMs(record['timestamp']);
  widenRange(draft, ts);
  const subagent = isSubagentEvent(record, data);

  switch (record['type']) {
    case 'session.start':
    case 'session.resume':
    case 'session.context_changed':
      noteSessionContext(draft, data);
      break;
    case 'session.model_change':
      noteSelectedModel(draft, data['newModel']);
      break;
    case 'session.auto_mode_resolved':
      noteSelectedModel(draft, data['chosenModel']);
      break;
    case 'session.shutdown':
      noteSelectedModel(draft, data['currentModel']);
      noteModifiedFiles(draft, data['codeChanges']);
      break;
    case 'user.message':
      if (!subagent) applyUserMessage(draft, data, offset, ts);
      break;
    case 'assistant.turn_start':
      if (subagent) break;
      draft.answeredModel ||= modelName(data['model']);
      draft.openAssistantTurn = undefined;
      break;
    case 'assistant.message':
      applyAssistantMessage(draft, data, subagent, offset, ts);
      break;
    case 'tool.execution_start':
      applyToolStart(draft, data, subagent, offset, ts);
      break;
    case 'tool.execution_complete':
      if (!subagent) applyToolComplete(draft, data);
      break;
    case 'abort':
      noteInterrupt(draft);
      break;
    case 'skill.invoked':
      noteSkill(draft, data);
      break;
    // system.message / system.notification are injected; reasoning, hooks, usage, truncation,
    // compaction and every type added later carry no turns.
  }
}

/** Sub-agent events carry an envelope `agentId` (newer) or `data.parentToolCallId` (older). */
function isSubagentEvent(record: Record<string, unknown>, data: Record<string, unknown>): boolean {
  return (
    trimmedString(record['agentId']) !== undefined || trimmedString(data['parentToolCallId']) !== undefined
  );
}

// ----- turns

function applyUserMessage(
  draft: SessionDraft,
  data: Record<string, unknown>,
  offset: number,
  ts: number | null,
): void {
  if (isInjectedUserMessage(data)) return;
  const text = userPromptText(data['content']);
  if (text === undefined) return;
  const turn = newTurn('user', offset, ts);
  turn.textParts.push(text);
  turn.toolErrors = draft.pendingToolErrors;
  turn.interrupted = draft.pendingInterrupt;
  draft.pendingToolErrors = 0;
  draft.pendingInterrupt = false;
  draft.turns.push(turn);
  draft.lastUserTurn = turn;
  draft.openAssistantTurn = undefined;
}

function isInjectedUserMessage(data: Record<string, unknown>): boolean {
  if (data['isAutopilotContinuation'] === true || isRecord(data['crossSession'])) return true;
  const source = trimmedString(data['source']);
  return source !== undefined && INJECTED_SOURCE.test(source);
}

function applyAssistantMessage(
  draft: SessionDraft,
  data: Record<string, unknown>,
  subagent: boolean,
  offset: number,
  ts: number | null,
): void {
  const requests = Array.isArray(data['toolRequests']) ? data['toolRequests'].filter(isRecord) : [];
  if (subagent) {
    // A sub-agent's work counts for the session's tools, never as the assistant's answer.
    for (const request of requests) {
      const name = trimmedString(request['name']);
      if (name) draft.toolsUsed.add(name);
    }
    return;
  }
  draft.answeredModel ||= modelName(data['model']);
  const turn = assistantTurnFor(draft, trimmedString(data['messageId']), offset, ts);
  const text = messageText(data['content']);
  if (text !== '') turn.textParts.push(text);
  for (const request of requests) {
    creditToolCall(draft, turn, request['name'], request['toolCallId'], request['arguments']);
  }
}

/** Streamed chunks of one message arrive as consecutive events with the same `messageId`. */
function assistantTurnFor(
  draft: SessionDraft,
  messageId: string | undefined,
  offset: number,
  ts: number | null,
): DraftTurn {
  const open = draft.openAssistantTurn;
  if (messageId !== undefined && open?.messageId === messageId) return open;
  const turn = openAssistantTurn(draft, offset, ts);
  turn.messageId = messageId;
  return turn;
}

/** `content` is a string; tolerate a list of `{type:"text",text}` blocks too. */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .map((block) => (block['type'] === 'text' ? (trimmedString(block['text']) ?? '') : ''))
    .filter((text) => text !== '')
    .join('\n');
}

function applyToolStart(
  draft: SessionDraft,
  data: Record<string, unknown>,
  subagent: boolean,
  offset: number,
  ts: number | null,
): void {
  const name = trimmedString(data['toolName']);
  if (name === undefined) return;
  if (subagent) {
    draft.toolsUsed.add(name);
    return;
  }
  const callId = trimmedString(data['toolCallId']);
  if (callId !== undefined && draft.creditedToolCalls.has(callId)) return;
  // A call with no announcing assistant message (older builds log it first) joins the assistant
  // turn in progress, or opens one.
  const turn = draft.openAssistantTurn ?? openAssistantTurn(draft, offset, ts);
  creditToolCall(draft, turn, name, callId, data['arguments']);
}

function creditToolCall(
  draft: SessionDraft,
  turn: DraftTurn,
  rawName: unknown,
  rawCallId: unknown,
  args: unknown,
): void {
  const name = trimmedString(rawName);
  if (name === undefined) return;
  const callId = trimmedString(rawCallId);
  if (callId !== undefined) {
    if (draft.creditedToolCalls.has(callId)) return;
    draft.creditedToolCalls.add(callId);
  }
  turn.toolNames.push(name);
  draft.toolsUsed.add(name);
  // Arguments are an object, or the same as a JSON string.
  const parsed = parseArguments(args);
  if (hasActionRoom(turn.actions)) pushActions(turn.actions, copilotToolActions(name, parsed));
  noteArgumentPaths(draft, parsed);
}

/** The file paths in a tool's arguments, for the session's files. */
function noteArgumentPaths(draft: SessionDraft, value: unknown): void {
  if (!isRecord(value)) return;
  for (const key of FILE_PATH_KEYS) {
    const filePath = trimmedString(value[key]);
    if (filePath) draft.filesTouched.add(filePath);
  }
}

function applyToolComplete(draft: SessionDraft, data: Record<string, unknown>): void {
  const result = isRecord(data['result']) ? data['result'] : {};
  // Older builds (≤1.0.4x) record `result.result_type` instead of `success`.
  const legacyType = trimmedString(result['result_type']) ?? trimmedString(result['resultType']);
  const failed = data['success'] === false || (legacyType !== undefined && legacyType !== 'success');
  if (!failed) return;
  const error = isRecord(data['error']) ? data['error'] : {};
  const code = trimmedString(error['code']) ?? legacyType ?? '';
  if (REJECTED_TOOL.test(code)) noteInterrupt(draft);
  else noteToolError(draft);
}

/** Errors and interrupts belong to the exchange of the most recent prompt. */
function noteToolError(draft: SessionDraft): void {
  if (draft.lastUserTurn) draft.lastUserTurn.toolErrors++;
  else draft.pendingToolErrors++;
}

function noteInterrupt(draft: SessionDraft): void {
  if (draft.lastUserTurn) draft.lastUserTurn.interrupted = true;
  else draft.pendingInterrupt = true;
}

function openAssistantTurn(draft: SessionDraft, offset: number, ts: number | null): DraftTurn {
  const turn = newTurn('assistant', offset, ts);
  draft.turns.push(turn);
  draft.openAssistantTurn = turn;
  return turn;
}
