/**
 * A VS Code chat session object (version 3: the legacy `.json` document, or the state an op log
 * replays to) → a HarvestedSession. Shapes and rules: harvest-spec §4.3–§4.4.
 *
 * Each kept request gives a user turn (the prompt) and an assistant turn (the response's text and
 * tool names). A request is dropped with its response when another extension answered it, VS Code
 * sent it itself (`isSystemInitiated`), or its prompt is empty or only injected context.
 */
import { ResponseActions } from './actions.js';
import type { HarvestedSession, HarvestedTurn, ToolAction } from '../../src/core/session.js';
import {
  baseName,
  epochMs,
  isOnlyTagBlocks,
  isRecord,
  nonEmptyString,
  OrderedSet,
  TimeRange,
} from './util.js';

export interface SessionMeta {
  /** Used when the session object has no `sessionId` (the file stem). */
  fallbackSessionId: string;
  /** The workspace folder ('' when the chat had none). */
  cwd: string;
  sourcePath: string;
}

const COPILOT_EXTENSION_ID = 'github.copilot-chat';
const MAX_FILES_TOUCHED = 50;
const PARAGRAPH_BREAK = '\n\n';
/** A Markdown code fence line: the fence, then an info string (opening) or nothing (closing). */
const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})(.*)$/;
/** `isConfirmed` kinds that mean the tool never ran because the user said no (Denied, Skipped). */
const REFUSED_CONFIRMATIONS = new Set([0, 5]);

interface RequestTurns {
  user: HarvestedTurn;
  assistant: HarvestedTurn | undefined;
}

interface SessionDraft {
  turns: HarvestedTurn[];
  times: TimeRange;
  model: string;
  sourceVersion: string;
  toolsUsed: OrderedSet;
  filesTouched: OrderedSet;
}

export function chatSessionToHarvested(
  session: Record<string, unknown>,
  meta: SessionMeta,
): HarvestedSession | undefined {
  const draft: SessionDraft = {
    turns: [],
    times: new TimeRange(),
    model: '',
    sourceVersion: '',
    toolsUsed: new OrderedSet(),
    filesTouched: new OrderedSet(MAX_FILES_TOUCHED),
  };
  draft.times.add(epochMs(session['creationDate']));
  const requests = Array.isArray(session['requests']) ? session['requests'] : [];
  for (const request of requests) {
    if (isRecord(request)) addRequest(draft, request);
  }
  if (draft.turns.length === 0) return undefined;
  draft.times.add(epochMs(session['lastMessageDate']));
  return {
    source: 'copilot',
    sessionId: nonEmptyString(session['sessionId']) ?? meta.fallbackSessionId,
    cwd: meta.cwd,
    branch: '',
    model: draft.model || selectedModel(session),
    startedAt: draft.times.start,
    endedAt: draft.times.end,
    turns: draft.turns.map((turn, seq) => ({ ...turn, seq })),
    toolsUsed: draft.toolsUsed.values(),
    skillsUsed: [],
    filesTouched: draft.filesTouched.values(),
    sourcePath: meta.sourcePath,
    sourceVersion: draft.sourceVersion,
  };
}

function addRequest(draft: SessionDraft, request: Record<string, unknown>): void {
  const turns = requestTurns(draft, request);
  if (turns === undefined) return;
  draft.turns.push(turns.user);
  if (turns.assistant) draft.turns.push(turns.assistant);
  draft.times.add(turns.user.ts);
  draft.times.add(turns.assistant?.ts ?? null);
  draft.model ||= nonEmptyString(request['modelId']) ?? '';
  const agent = request['agent'];
  if (isRecord(agent)) draft.sourceVersion ||= nonEmptyString(agent['extensionVersion']) ?? '';
}

function requestTurns(draft: SessionDraft, request: Record<string, unknown>): RequestTurns | undefined {
  if (request['isSystemInitiated'] === true || !answeredByCopilot(request)) return undefined;
  const prompt = promptText(request['message']);
  if (prompt === '' || isOnlyTagBlocks(prompt)) return undefined;

  const requestTs = epochMs(request['timestamp']);
  const response = renderResponse(request['response']);
  for (const name of response.toolNames) draft.toolsUsed.add(name);
  for (const file of response.files) draft.filesTouched.add(file);

  const user: HarvestedTurn = {
    seq: 0,
    role: 'user',
    text: prompt,
    ts: requestTs,
    toolNames: [],
    actions: [],
    toolErrors: response.toolErrors + (requestFailed(request) ? 1 : 0),
    // A cancelled request or a refused tool call is the user stopping the exchange.
    interrupted: request['isCanceled'] === true || response.refusedTool,
    offset: 0,
  };
  if (response.text === '' && response.toolNames.length === 0) return { user, assistant: undefined };
  const modelState = request['modelState'];
  const completedAt = isRecord(modelState) ? epochMs(modelState['completedAt']) : null;
  const assistant: HarvestedTurn = {
    seq: 0,
    role: 'assistant',
    text: response.text,
    ts: completedAt ?? requestTs,
    toolNames: response.toolNames,
    actions: response.actions,
    toolErrors: 0,
    interrupted: false,
    offset: 0,
  };
  return { user, assistant };
}

/** Requests with no agent are kept (old sessions); another extension's participant is not Copilot. */
function answeredByCopilot(request: Record<string, unknown>): boolean {
  const agent = request['agent'];
  if (!isRecord(agent)) return true;
  const extensionId = agent['extensionId'];
  const id = isRecord(extensionId)
    ? (nonEmptyString(extensionId['_lower']) ?? nonEmptyString(extensionId['value']))
    : nonEmptyString(extensionId);
  return id === undefined || id.toLowerCase() === COPILOT_EXTENSION_ID;
}

/** What the user typed: `message.text`, else the text of its parts (NUL characters removed). */
function promptText(message: unknown): string {
  if (!isRecord(message)) return '';
  let text = typeof message['text'] === 'string' ? message['text'] : '';
  if (text.trim() === '' && Array.isArray(message['parts'])) {
    text = message['parts']
      .filter(isRecord)
      .map((part) => (typeof part['text'] === 'string' ? part['text'] : ''))
      .join('');
  }
  return text.replaceAll('\0', '').trim();
}

/** The request ended in an error (quota, network, model failure); a cancellation is not one. */
function requestFailed(request: Record<string, unknown>): boolean {
  if (request['isCanceled'] === true) return false;
  const result = request['result'];
  return isRecord(result) && isRecord(result['errorDetails']);
}

function selectedModel(session: Record<string, unknown>): string {
  const inputState = session['inputState'];
  const selected = isRecord(inputState) ? inputState['selectedModel'] : undefined;
  return isRecord(selected) ? (nonEmptyString(selected['identifier']) ?? '') : '';
}

// ---------------------------------------------------------------------------------------------
// Response parts

interface RenderedResponse {
  text: string;
  toolNames: string[];
  actions: ToolAction[];
  toolErrors: number;
  refusedTool: boolean;
  files: string[];
}

/**
 * Joins the response's markdown chunks (they are pieces of one streamed text, so no separator) with
 * inline references as their base names, and collects tool names, edited files and the tool calls'
 * actions (with the text of the edits). Thinking, confirmations and tool outputs are never read.
 */
function renderResponse(parts: unknown): RenderedResponse {
  const rendered: RenderedResponse = {
    text: '',
    toolNames: [],
    actions: [],
    toolErrors: 0,
    refusedTool: false,
    files: [],
  };
  if (!Array.isArray(parts)) return rendered;
  const chunks: string[] = [];
  const actions = new ResponseActions();
  for (const part of parts) {
    if (!isRecord(part)) continue;
    switch (part['kind']) {
      case undefined:
      case 'markdownContent':
      case 'markdownVuln':
        chunks.push(markdownValue(part));
        break;
      case 'inlineReference':
        chunks.push(inlineReferenceName(part));
        break;
      case 'toolInvocation':
      case 'toolInvocationSerialized':
        // Text before and after a tool call are separate blocks in VS Code's chat view.
        chunks.push(PARAGRAPH_BREAK);
        noteToolInvocation(rendered, actions, part);
        break;
      case 'textEditGroup':
      case 'notebookEditGroup':
        noteEditedFile(rendered, part['uri']);
        actions.editGroup(part);
        break;
      case 'codeblockUri':
        if (part['isEdit'] === true) noteEditedFile(rendered, part['uri']);
        break;
      default:
        break; // thinking, progressMessage, confirmation, undoStop, mcpServersStarting, …
    }
  }
  rendered.text = tidyMarkdown(chunks.join(''));
  rendered.actions = actions.actions();
  return rendered;
}

/** Legacy parts are the markdown string object itself (`value`); newer ones wrap it in `content`. */
function markdownValue(part: Record<string, unknown>): string {
  if (typeof part['value'] === 'string') return part['value'];
  const content = part['content'];
  if (typeof content === 'string') return content;
  return isRecord(content) && typeof content['value'] === 'string' ? content['value'] : '';
}

/** How VS Code shows an inline reference: its name, else the referenced file's base name. */
function inlineReferenceName(part: Record<string, unknown>): string {
  const name = nonEmptyString(part['name']);
  if (name !== undefined) return name;
  const ref = part['inlineReference'];
  if (!isRecord(ref)) return '';
  // A workspace symbol carries its own name; a Location wraps the URI.
  const symbolName = nonEmptyString(ref['name']);
  if (symbolName !== undefined) return symbolName;
  const target = isRecord(ref['uri']) ? ref['uri'] : isRecord(ref['location']) ? ref['location'] : ref;
  const uri = isRecord(target['uri']) ? target['uri'] : target;
  return baseName(uriLocation(uri));
}

function noteToolInvocation(
  rendered: RenderedResponse,
  actions: ResponseActions,
  part: Record<string, unknown>,
): void {
  const toolId = nonEmptyString(part['toolId'])?.trim();
  if (toolId) {
    rendered.toolNames.push(toolId);
    actions.invocation(part, toolId);
  }
  const confirmation = part['isConfirmed'];
  // Before VS Code 1.104 a refusal was `false`; later it is `{type: Denied|Skipped}`.
  const refused =
    confirmation === false ||
    (isRecord(confirmation) &&
      typeof confirmation['type'] === 'number' &&
      REFUSED_CONFIRMATIONS.has(confirmation['type']));
  if (refused) rendered.refusedTool = true;
  // Only the error flag is read here; the tool's output stays unread.
  const details = part['resultDetails'];
  if (!refused && isRecord(details) && details['isError'] === true) rendered.toolErrors++;
}

function noteEditedFile(rendered: RenderedResponse, uri: unknown): void {
  const location = isRecord(uri) ? uriLocation(uri) : '';
  if (location !== '') rendered.files.push(location);
}

/** The path of a serialized URI: `fsPath` when VS Code stored it, else `path`. */
function uriLocation(uri: Record<string, unknown>): string {
  return nonEmptyString(uri['fsPath']) ?? nonEmptyString(uri['path']) ?? '';
}

function tidyMarkdown(text: string): string {
  return dropEmptyCodeBlocks(text)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Removes fenced code blocks with nothing inside: VS Code streams an edit as an empty fence around
 * the edited file's pill, and the edit itself is not text. Fences are tracked line by line, so a
 * closing fence followed by the next block's opening one is never taken for an empty block.
 */
function dropEmptyCodeBlocks(text: string): string {
  const out: string[] = [];
  let open: { fence: string; index: number; empty: boolean } | undefined;
  for (const line of text.split('\n')) {
    const fence = FENCE_LINE.exec(line);
    if (open === undefined) {
      if (fence?.[1] !== undefined) open = { fence: fence[1], index: out.length, empty: true };
      out.push(line);
      continue;
    }
    if (fence?.[1] !== undefined && closes(open.fence, fence[1], fence[2] ?? '')) {
      if (open.empty) out.length = open.index;
      else out.push(line);
      open = undefined;
      continue;
    }
    if (line.trim() !== '') open.empty = false;
    out.push(line);
  }
  return out.join('\n');
}

/** A closing fence uses the opening fence's character, at least as many of them, and no info string. */
function closes(opening: string, candidate: string, rest: string): boolean {
  return candidate[0] === opening[0] && candidate.length >= opening.length && rest.trim() === '';
}
