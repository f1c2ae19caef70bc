/**
 * Codex records → session draft entries and metadata. One function per record family: G2 envelopes
 * (session_meta, turn_context, response_item, event_msg), G1 bare records, G0 items (two shapes).
 * Which of the duplicated streams becomes turns is decided later, in codex-session.ts.
 */
import {
  argumentStrings,
  classifyToolOutput,
  cleanUserText,
  contentText,
  environmentCwd,
  injectedSkillName,
  isRecord,
  nonEmptyString,
  parseUtcMs,
  patchedFiles,
  sanitizeToolName,
  skillFileNames,
  type ToolOutcome,
} from './text.js';
import type { CodexCall } from './actions.js';
import { noteTimestamp, type SessionDraft, type Stream } from './session.js';

/** Response items that are tool calls under a fixed name (the rest use `payload.name`). */
const CALL_ITEM_NAMES: Record<string, string> = {
  local_shell_call: 'local_shell',
  web_search_call: 'web_search',
  tool_search_call: 'tool_search',
};
/** Tool events, used only when a file has no response_item tool calls. */
const TOOL_EVENT_NAMES: Record<string, string> = {
  exec_command_end: 'exec_command',
  patch_apply_end: 'apply_patch',
};

// ---------------------------------------------------------------------------------------------
// Record dispatch

export function applyRecord(draft: SessionDraft, record: Record<string, unknown>, offset: number): void {
  const payload = record['payload'];
  if (typeof record['type'] === 'string' && isRecord(payload)) {
    applyEnvelope(draft, record['type'], payload, record['timestamp'], offset);
  } else if (isLegacyMeta(record)) {
    applyLegacyMeta(draft, record, true);
  } else if (typeof record['type'] === 'string') {
    applyResponseItem(draft, record, null, offset); // G1 bare item
  }
  // `{"record_type":"state"}` and anything unknown carry nothing.
}

/** G1's first line `{id, timestamp, instructions, git}` (also G0's `session` object). */
function isLegacyMeta(record: Record<string, unknown>): boolean {
  return (
    record['type'] === undefined && record['record_type'] === undefined && typeof record['id'] === 'string'
  );
}

function applyEnvelope(
  draft: SessionDraft,
  type: string,
  payload: Record<string, unknown>,
  timestamp: unknown,
  offset: number,
): void {
  const ts = parseUtcMs(timestamp);
  if (ts != null) draft.sawRecordTimestamp = true;
  noteTimestamp(draft, ts);
  if (type === 'session_meta') applySessionMeta(draft, payload, true);
  else if (type === 'turn_context') applyTurnContext(draft, payload);
  else if (type === 'response_item') applyResponseItem(draft, payload, ts, offset);
  else if (type === 'event_msg') applyEvent(draft, payload, ts, offset);
  // compacted (a summary of earlier history), world_state, future types: not turns.
}

/** The metadata part of a record, for the head of a file read from an offset. */
export function applyHeadRecord(draft: SessionDraft, record: Record<string, unknown>): void {
  const payload = record['payload'];
  if (isRecord(payload)) {
    if (record['type'] === 'session_meta') applySessionMeta(draft, payload, false);
    else if (record['type'] === 'turn_context') applyTurnContext(draft, payload);
    else if (record['type'] === 'response_item') noteEnvironment(draft, payload);
  } else if (isLegacyMeta(record)) {
    applyLegacyMeta(draft, record, false);
  } else {
    noteEnvironment(draft, record);
  }
}

function applySessionMeta(draft: SessionDraft, meta: Record<string, unknown>, withTime: boolean): void {
  if (!draft.sawSessionMeta) {
    draft.sawSessionMeta = true;
    draft.sessionId = nonEmptyString(meta['id']) ?? draft.sessionId;
    draft.subagent = isSubagentMeta(meta);
  }
  draft.metaCwd ||= nonEmptyString(meta['cwd']) ?? '';
  draft.sourceVersion ||= nonEmptyString(meta['cli_version']) ?? '';
  draft.model ||= nonEmptyString(meta['model']) ?? '';
  noteGit(draft, meta['git']);
  if (withTime) noteTimestamp(draft, parseUtcMs(meta['timestamp']));
}

/** Sub-agent threads: `source: {subagent: …}` (review, compact, spawned agents). */
function isSubagentMeta(meta: Record<string, unknown>): boolean {
  const source = meta['source'];
  return (isRecord(source) && 'subagent' in source) || meta['thread_source'] === 'subagent';
}

export function applyLegacyMeta(draft: SessionDraft, meta: Record<string, unknown>, withTime: boolean): void {
  if (!draft.sawSessionMeta) {
    draft.sawSessionMeta = true;
    draft.sessionId = nonEmptyString(meta['id']) ?? draft.sessionId;
  }
  noteGit(draft, meta['git']);
  if (withTime) noteTimestamp(draft, parseUtcMs(meta['timestamp']));
}

function noteGit(draft: SessionDraft, git: unknown): void {
  if (isRecord(git)) draft.branch ||= nonEmptyString(git['branch']) ?? '';
}

function applyTurnContext(draft: SessionDraft, context: Record<string, unknown>): void {
  draft.model ||= nonEmptyString(context['model']) ?? '';
  draft.turnCwd ||= nonEmptyString(context['cwd']) ?? '';
}

// ----- response items (G2 payloads, G1 bare records, G0 items)

export function applyResponseItem(
  draft: SessionDraft,
  item: Record<string, unknown>,
  ts: number | null,
  offset: number,
): void {
  const type = item['type'];
  if (type === 'message') applyMessageItem(draft, item, ts, offset);
  else if (type === 'function_call' || type === 'custom_tool_call') {
    const args = parseJsonText(type === 'function_call' ? item['arguments'] : item['input']);
    const files = noteToolArguments(draft, args);
    addToolCall(draft, 'item', nonEmptyString(item['name']), ts, offset, files, {
      type: 'function',
      args: args.value,
    });
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    addToolOutcome(draft, 'item', classifyToolOutput(item['output']));
  } else if (typeof type === 'string' && type in CALL_ITEM_NAMES) {
    const files =
      type === 'local_shell_call' ? noteToolArguments(draft, { value: item['action'], depth: 0 }) : [];
    addToolCall(draft, 'item', CALL_ITEM_NAMES[type], ts, offset, files, {
      type: 'action',
      action: item['action'],
    });
  } else if (type === undefined && typeof item['role'] === 'string') {
    applyChatItem(draft, item, offset); // the G0 fork's chat-completions shape
  }
  // reasoning (summary, content, encrypted_content), ghost_snapshot…: never read.
}

function applyMessageItem(
  draft: SessionDraft,
  item: Record<string, unknown>,
  ts: number | null,
  offset: number,
): void {
  const role = item['role'];
  const text = contentText(item['content']);
  if (role === 'user') addUserMessage(draft, 'item', text, ts, offset);
  else if (role === 'assistant') addAssistantMessage(draft, 'item', text, ts, offset);
  // developer / system messages are instructions, never turns.
}

/** `{role, content, tool_calls}` items: user/assistant messages, assistant tool calls, tool results. */
function applyChatItem(draft: SessionDraft, item: Record<string, unknown>, offset: number): void {
  const role = item['role'];
  if (role === 'user') addUserMessage(draft, 'item', contentText(item['content']), null, offset);
  else if (role === 'tool') addToolOutcome(draft, 'item', classifyToolOutput(item['content']));
  if (role !== 'assistant') return;
  addAssistantMessage(draft, 'item', contentText(item['content']), null, offset);
  const calls = Array.isArray(item['tool_calls']) ? item['tool_calls'].filter(isRecord) : [];
  for (const call of calls) {
    const fn = isRecord(call['function']) ? call['function'] : {};
    const args = parseJsonText(fn['arguments']);
    const files = noteToolArguments(draft, args);
    addToolCall(draft, 'item', nonEmptyString(fn['name']), null, offset, files, {
      type: 'function',
      args: args.value,
    });
  }
}

// ----- events (G2 event_msg payloads)

function applyEvent(
  draft: SessionDraft,
  event: Record<string, unknown>,
  ts: number | null,
  offset: number,
): void {
  const type = event['type'];
  if (type === 'user_message') {
    // Early G2 builds sent instructions and environment context as user_message with another `kind`.
    const kind = event['kind'];
    const text = typeof event['message'] === 'string' ? event['message'] : '';
    if (kind === undefined || kind === 'plain') addUserMessage(draft, 'event', text, ts, offset);
    else noteEnvironmentText(draft, text);
  } else if (type === 'agent_message') {
    addAssistantMessage(
      draft,
      'event',
      typeof event['message'] === 'string' ? event['message'] : '',
      ts,
      offset,
    );
  } else if (type === 'turn_aborted') {
    if (event['reason'] !== 'review_ended') draft.entries.push({ kind: 'interrupt' });
  } else if (typeof type === 'string' && type in TOOL_EVENT_NAMES) {
    const files = isRecord(event['changes']) ? Object.keys(event['changes']) : [];
    const call: CodexCall =
      type === 'patch_apply_end'
        ? { type: 'patchEvent', changes: event['changes'] }
        : { type: 'execEvent', command: event['command'] };
    addToolCall(draft, 'event', TOOL_EVENT_NAMES[type], ts, offset, files, call);
    addToolOutcome(draft, 'event', toolEventOutcome(event));
  }
  // token_count, agent_reasoning, task_started/complete, error…: not turns.
}

function toolEventOutcome(event: Record<string, unknown>): ToolOutcome {
  const said = [event['stderr'], event['aggregated_output']].filter((v) => typeof v === 'string').join('\n');
  if (/rejected by user/i.test(said)) return 'rejected';
  if (event['success'] === false) return 'error';
  const exitCode = event['exit_code'];
  return typeof exitCode === 'number' && exitCode !== 0 ? 'error' : 'ok';
}

// ----- entries

function addUserMessage(
  draft: SessionDraft,
  stream: Stream,
  raw: string,
  ts: number | null,
  offset: number,
): void {
  noteEnvironmentText(draft, raw);
  const skill = injectedSkillName(raw);
  if (skill !== undefined) draft.skillsUsed.add(skill);
  const text = cleanUserText(raw);
  if (text !== undefined) draft.entries.push({ kind: 'message', stream, role: 'user', text, ts, offset });
}

function addAssistantMessage(
  draft: SessionDraft,
  stream: Stream,
  raw: string,
  ts: number | null,
  offset: number,
): void {
  const text = raw.replace(/\r\n?/g, '\n').trim();
  if (text !== '') draft.entries.push({ kind: 'message', stream, role: 'assistant', text, ts, offset });
}

function addToolCall(
  draft: SessionDraft,
  stream: Stream,
  rawName: string | undefined,
  ts: number | null,
  offset: number,
  files: string[],
  call: CodexCall,
): void {
  const name = rawName === undefined ? '' : sanitizeToolName(rawName);
  if (name !== '') draft.entries.push({ kind: 'tool', stream, name, ts, offset, files, call });
}

function addToolOutcome(draft: SessionDraft, stream: Stream, outcome: ToolOutcome): void {
  if (outcome === 'error') draft.entries.push({ kind: 'toolError', stream });
  else if (outcome === 'rejected') draft.entries.push({ kind: 'rejection', stream });
}

/** Arguments as recorded, their JSON text parsed once (`depth` 1 then: one level was a string). */
interface ParsedArguments {
  value: unknown;
  depth: number;
}

function parseJsonText(args: unknown): ParsedArguments {
  if (typeof args !== 'string') return { value: args, depth: 0 };
  const trimmed = args.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { value: args, depth: 0 };
  try {
    return { value: JSON.parse(trimmed) as unknown, depth: 1 };
  } catch {
    return { value: args, depth: 0 };
  }
}

/** Skill names and patched file paths of a call's arguments, for the session; returns the files. */
function noteToolArguments(draft: SessionDraft, args: ParsedArguments): string[] {
  const files: string[] = [];
  for (const text of argumentStrings(args.value, args.depth)) {
    files.push(...patchedFiles(text));
    for (const skill of skillFileNames(text)) draft.skillsUsed.add(skill);
  }
  return files;
}

/** The cwd in an `<environment_context>` user message (G1 records no other). */
function noteEnvironment(draft: SessionDraft, item: Record<string, unknown>): void {
  if (item['type'] === 'message' && item['role'] === 'user') {
    noteEnvironmentText(draft, contentText(item['content']));
  }
}

function noteEnvironmentText(draft: SessionDraft, text: string): void {
  if (draft.envCwd === '' && text.includes('<environment_context>')) {
    draft.envCwd = environmentCwd(text) ?? '';
  }
}
