/**
 * The project of a VS Code workspace: `workspaceStorage/<hash>/workspace.json` names either a
 * folder (`{"folder":"file:///abs/path"}`) or a multi-root workspace file
 * (`{"workspace":"file:///…/x.code-workspace"}`). See harvest-spec §4.1.
 */
import path from 'node:path';
import { readRegularFile } from '../../src/core/io/regular-file.js';
import { isRecord, nonEmptyString } from './util.js';

/** Workspace files are small; anything bigger is not one. */
const MAX_WORKSPACE_FILE_BYTES = 1 << 20;
const DRIVE_PATH = /^\/?[A-Za-z]:(?:[\\/]|$)/;

/**
 * The project folder for a `workspace.json`, or '' when there is none: the file is missing or not
 * JSON, the workspace is remote (`vscode-remote://…`), or the window had no folder. Never throws.
 */
export async function workspaceProject(workspaceJsonPath: string): Promise<string> {
  const json = readJsonc(workspaceJsonPath);
  if (!isRecord(json)) return '';
  if (json['folder'] !== undefined) return uriToPath(json['folder']);
  // `configuration` is what older VS Code versions wrote for a multi-root workspace.
  const workspaceFile = uriToPath(json['workspace'] ?? json['configuration']);
  return workspaceFile === '' ? '' : codeWorkspaceFolder(workspaceFile);
}

/**
 * The first folder of a `.code-workspace` file, resolved against the file's own folder. When the
 * file cannot be read or lists no usable folder, the folder holding the file stands in for it.
 */
// eslint-disable-next-line @typescript-eslint/require-await -- reads are synchronous (regular-file.ts); kept async for callers
export async function codeWorkspaceFolder(workspaceFile: string): Promise<string> {
  const paths = DRIVE_PATH.test(workspaceFile) ? path.win32 : path;
  const ownFolder = paths.dirname(workspaceFile);
  const json = readJsonc(workspaceFile);
  const folders = isRecord(json) ? json['folders'] : undefined;
  const first: unknown = Array.isArray(folders) ? folders[0] : undefined;
  if (!isRecord(first)) return ownFolder;
  const relative = nonEmptyString(first['path']);
  if (relative !== undefined) {
    return DRIVE_PATH.test(relative) ? path.win32.normalize(relative) : paths.resolve(ownFolder, relative);
  }
  return uriToPath(first['uri']) || ownFolder;
}

/**
 * A `file:` URI (string, or VS Code's serialized `{scheme, authority, path}` object) → a path:
 * percent-decoded, the leading `/` before a drive letter dropped, a host kept as `//host/…`.
 * Other schemes (remote, virtual file systems) have no local path and give ''.
 */
export function uriToPath(uri: unknown): string {
  if (typeof uri === 'string') return fileUriStringToPath(uri);
  if (!isRecord(uri)) return '';
  const external = nonEmptyString(uri['external']);
  if (external !== undefined) return fileUriStringToPath(external);
  if (uri['scheme'] !== 'file') return '';
  const uriPath = nonEmptyString(uri['path']) ?? '';
  const authority = nonEmptyString(uri['authority']) ?? '';
  return localPath(authority, uriPath);
}

function fileUriStringToPath(uri: string): string {
  const match = /^file:\/\/([^/?#]*)([^?#]*)/i.exec(uri.trim());
  if (match == null) return '';
  try {
    return localPath(decodeURIComponent(match[1] ?? ''), decodeURIComponent(match[2] ?? ''));
  } catch {
    return ''; // Malformed percent-encoding.
  }
}

function localPath(authority: string, uriPath: string): string {
  if (uriPath === '') return '';
  if (authority !== '' && authority.toLowerCase() !== 'localhost') return `//${authority}${uriPath}`;
  return DRIVE_PATH.test(uriPath) && uriPath.startsWith('/') ? uriPath.slice(1) : uriPath;
}

function readJsonc(filePath: string): unknown {
  try {
    const buffer = readRegularFile(filePath, MAX_WORKSPACE_FILE_BYTES);
    return parseJsonc(buffer.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * JSON with comments and trailing commas, as VS Code writes `.code-workspace` files. Strings are
 * copied whole, so `//` or `,}` inside them are left alone. Throws on anything else invalid.
 */
export function parseJsonc(text: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let out = '';
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    const next = source[i + 1];
    if (ch === '"') {
      const end = stringEnd(source, i);
      out += source.slice(i, end);
      i = end;
    } else if (ch === '/' && next === '/') {
      const newline = source.indexOf('\n', i);
      i = newline === -1 ? source.length : newline;
    } else if (ch === '/' && next === '*') {
      const close = source.indexOf('*/', i + 2);
      i = close === -1 ? source.length : close + 2;
    } else {
      // A comma right before a closing bracket is a trailing comma; strings never end in one.
      if (ch === '}' || ch === ']') out = out.replace(/,\s*$/, '');
      out += ch;
      i++;
    }
  }
  return JSON.parse(out) as unknown;
}

/** Index just past the closing quote of the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}
