/**
 * Edits of JSON/JSONC config files that keep every byte we do not touch: comments, odd spacing and
 * key order survive because jsonc-parser's `modify` only replaces the span of the edited value.
 */
import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type JSONPath,
  type Node,
  type ParseError,
} from 'jsonc-parser';

const PARSE = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

export class JsonEditError extends Error {}

/** The parsed tree of `text` (undefined for an empty file), or a JsonEditError naming the first problem. */
export function jsonTree(text: string): Node | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE);
  const first = errors[0];
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new JsonEditError(`does not parse as JSON (${printParseErrorCode(first.error)} on line ${line})`);
  }
  if (root && root.type !== 'object') throw new JsonEditError('is not a JSON object');
  return root;
}

/** The value at `path`, as plain data, or undefined. */
export function jsonValueAt(text: string, path: JSONPath): unknown {
  const root = jsonTree(text);
  const node = root ? findNodeAtLocation(root, path) : undefined;
  return node ? nodeValue(node) : undefined;
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries(
        (node.children ?? []).map((p) => [p.children?.[0]?.value as string, nodeValue(p.children![1]!)]),
      );
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value as unknown;
  }
}

/** Indentation and line ending of the file, so inserted lines look like their neighbours. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

export interface JsonSet {
  text: string;
  /** The shallowest path that did not exist before (what an uninstall may remove once empty). */
  insertedAt: JSONPath;
}

/**
 * Sets `path` to `value`, creating the missing objects on the way. Each parent on the path must be an
 * object when it exists (a `servers` that is a string is refused, never replaced).
 */
export function setJsonValue(text: string, path: JSONPath, value: unknown): JsonSet {
  const root = jsonTree(text);
  let insertedAt: JSONPath = path;
  for (let depth = 1; depth <= path.length; depth++) {
    const prefix = path.slice(0, depth);
    const node = root ? findNodeAtLocation(root, prefix) : undefined;
    if (!node) {
      insertedAt = prefix;
      break;
    }
    if (depth < path.length && node.type !== 'object' && node.type !== 'array')
      throw new JsonEditError(`has "${prefix.join('.')}" that is not an object`);
  }
  const base = text.trim() === '' ? '{}' : text;
  const edits = modify(base, path, value, { formattingOptions: formattingOf(text) });
  return { text: applyEdits(base, edits), insertedAt };
}

/** Appends `value` to the array at `path` (created when missing). */
export function appendJsonItem(text: string, path: JSONPath, value: unknown): JsonSet {
  const current = jsonValueAt(text, path);
  if (current === undefined) return setJsonValue(text, path, [value]);
  if (!Array.isArray(current)) throw new JsonEditError(`has "${path.join('.')}" that is not a list`);
  const at = [...path, current.length];
  const edits = modify(text, at, value, { formattingOptions: formattingOf(text), isArrayInsertion: true });
  return { text: applyEdits(text, edits), insertedAt: at };
}

/**
 * Removes `path`, then each parent down to `insertedAt` that is left empty (those we created), so an
 * uninstall after other edits leaves no empty `{}` of ours behind.
 */
export function removeJsonValue(text: string, path: JSONPath, insertedAt: JSONPath = path): string {
  let out = applyEdits(text, modify(text, path, undefined, {}));
  for (let depth = path.length - 1; depth >= insertedAt.length && depth > 0; depth--) {
    const parent = path.slice(0, depth);
    const left = jsonValueAt(out, parent);
    const empty = Array.isArray(left)
      ? left.length === 0
      : left !== null && typeof left === 'object' && Object.keys(left).length === 0;
    if (!empty) break;
    out = applyEdits(out, modify(out, parent, undefined, {}));
  }
  return out;
}
