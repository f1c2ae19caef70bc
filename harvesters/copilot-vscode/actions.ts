/**
 * Actions of one VS Code chat response (copilot-vscode-session.ts). A serialized tool invocation keeps
 * no arguments, only what VS Code showed: the terminal command (`toolSpecificData.commandLine`), the
 * file in `invocationMessage` (its `uris`, or a `[](file:///…)` link), a searched text in backticks, and
 * sometimes `toolSpecificData.rawInput`. The text of an edit comes from the `textEditGroup` parts that
 * follow: each goes to the first edit or write of this response on that file (or on no known file) that
 * has no text yet; the first group after an edit with its own text only applies it; a later group on a
 * file adds to its edit; a group no invocation claims (edits from before agent tools) is an edit of its
 * own.
 */
import { joinStrings, MAX_ACTIONS_PER_TURN, stringArg, toolAction } from '../shared/actions.js';
import { vscodeToolKind } from '../shared/copilot-tool-actions.js';
import { isRecord, nonEmptyString } from './util.js';
import { uriToPath } from './workspace.js';
import type { ActionKind, ToolAction } from '../../src/core/session.js';

/** The name of an edit no tool invocation announced. */
const EDIT_GROUP_TOOL = 'textEditGroup';
const FILE_LINK = /\]\((file:\/\/[^)\s]+)\)/;
const BACKTICK_SPAN = /`([^`]+)`/;
const QUOTED_SPAN = /"([^"]+)"/;

interface DraftAction {
  kind: ActionKind;
  tool: string;
  target: string;
  added: string[];
  removed: string;
  /**
   * Where an edit's text comes from: `awaiting` the next edit group on its file; `input` it had its own
   * (the first group on the file then only applies it); `group` it took a group's (a later group on the
   * file adds to it); `none` for other kinds and for an `input` edit whose group was seen.
   */
  text: 'awaiting' | 'input' | 'group' | 'none';
}

export class ResponseActions {
  private readonly drafts: DraftAction[] = [];

  /** A `toolInvocation` / `toolInvocationSerialized` part. */
  invocation(part: Record<string, unknown>, toolId: string): void {
    if (this.drafts.length >= MAX_ACTIONS_PER_TURN) return;
    const kind = vscodeToolKind(toolId);
    const data = isRecord(part['toolSpecificData']) ? part['toolSpecificData'] : {};
    const input = isRecord(data['rawInput']) ? data['rawInput'] : {};
    const draft: DraftAction = {
      kind,
      tool: toolId,
      target: '',
      added: [],
      removed: '',
      text: 'none',
    };
    if (kind === 'run') draft.target = commandLine(data) || stringArg(input['command']);
    else if (kind === 'search') {
      draft.target = stringArg(input['query'] ?? input['pattern']) || searchedText(part);
    } else if (kind !== 'other') {
      draft.target = invocationFile(part) || stringArg(input['filePath']);
    }
    if (kind === 'edit' || kind === 'write') {
      const added = stringArg(input['newString'] ?? input['content'] ?? input['code']);
      if (added !== '') draft.added.push(added);
      draft.removed = stringArg(input['oldString']);
      draft.text = added === '' ? 'awaiting' : 'input';
    }
    this.drafts.push(draft);
  }

  /** A `textEditGroup` / `notebookEditGroup` part: the edits VS Code applied to one file. */
  editGroup(part: Record<string, unknown>): void {
    const file = uriLocation(part['uri']);
    if (file === '') return;
    const text = groupText(part['edits']);
    const key = fileKey(file);
    const onFile = (state: DraftAction['text']) =>
      this.drafts.find((d) => d.text === state && d.target !== '' && fileKey(d.target) === key);
    const waiting = onFile('awaiting') ?? this.drafts.find((d) => d.text === 'awaiting' && d.target === '');
    if (waiting !== undefined) {
      waiting.target ||= file;
      if (text !== '') waiting.added.push(text);
      waiting.text = 'group';
      return;
    }
    const applied = onFile('input');
    if (applied !== undefined) {
      applied.text = 'none'; // the edit's own text, applied
      return;
    }
    const continued = onFile('group');
    if (continued !== undefined) {
      if (text !== '') continued.added.push(text);
      return;
    }
    if (this.drafts.length >= MAX_ACTIONS_PER_TURN) return;
    this.drafts.push({
      kind: 'edit',
      tool: EDIT_GROUP_TOOL,
      target: file,
      added: text === '' ? [] : [text],
      removed: '',
      text: 'group',
    });
  }

  actions(): ToolAction[] {
    return this.drafts.map((d) => toolAction(d.kind, d.tool, d.target, d.added.join('\n'), d.removed));
  }
}

/** `toolSpecificData.commandLine`: `{original, toolEdited?}` or, in older versions, a string. */
function commandLine(data: Record<string, unknown>): string {
  const line = data['commandLine'];
  if (typeof line === 'string') return line;
  return isRecord(line) ? stringArg(line['original'] ?? line['toolEdited']) : '';
}

/** The file an invocation names: a URI in its message's `uris`, else a `file://` link in its text. */
function invocationFile(part: Record<string, unknown>): string {
  for (const key of ['invocationMessage', 'pastTenseMessage']) {
    const message = part[key];
    if (isRecord(message) && isRecord(message['uris'])) {
      for (const uri of Object.values(message['uris'])) {
        const file = uriLocation(uri);
        if (file !== '') return file;
      }
    }
    const link = FILE_LINK.exec(messageText(message))?.[1];
    const file = link === undefined ? '' : uriToPath(link);
    if (file !== '') return file;
  }
  return '';
}

/** "Searching text for `Bonjour`": the first code span, else the first quoted text. */
function searchedText(part: Record<string, unknown>): string {
  const text = messageText(part['invocationMessage']) || messageText(part['pastTenseMessage']);
  return BACKTICK_SPAN.exec(text)?.[1] ?? QUOTED_SPAN.exec(text)?.[1] ?? '';
}

/** A progress message: a string or a markdown string `{value}`. */
function messageText(message: unknown): string {
  if (typeof message === 'string') return message;
  return isRecord(message) ? stringArg(message['value']) : '';
}

/** A serialized URI's path (`fsPath` when stored), or a `file:` URI string's. */
function uriLocation(uri: unknown): string {
  if (isRecord(uri)) return nonEmptyString(uri['fsPath']) ?? uriToPath(uri);
  return uriToPath(uri);
}

/** The same file whichever slashes or case a path was written with. */
function fileKey(file: string): string {
  return file.replaceAll('\\', '/').toLowerCase();
}

/** `edits` is a list of lists of `{text, range}`; the new texts, in order. */
function groupText(edits: unknown): string {
  if (!Array.isArray(edits)) return '';
  const texts = edits.flatMap((batch: unknown) =>
    Array.isArray(batch) ? batch.map((edit: unknown) => (isRecord(edit) ? edit['text'] : undefined)) : [],
  );
  return joinStrings(texts);
}
