/**
 * Edits of JSON/JSONC config files that keep every byte we do not touch: comments, odd spacing and
 * key order survive because jsonc-parser's `modify` only replaces the span of the edited value. A
 * leading UTF-8 byte order mark (Windows editors write one) is set aside while parsing and kept.
 */
import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parseTree,
  printParseErrorCode,
  type JSONPath,
  type Node,
  type ParseError,
} from 'jsonc-parser';

const PARSE = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

export class JsonEditError extends Error {}

const BOM = '\uFEFF';

/** `edit` on the text after a leading byte order mark, which the result keeps. */
function keepingBom(text: string, edit: (body: string) => string): string {
  return text.startsWith(BOM) ? BOM + edit(text.slice(BOM.length)) : edit(text);
}

const withoutBom = (text: string): string => (text.startsWith(BOM) ? text.slice(BOM.length) : text);

/**
 * The parsed tree of `text` (undefined for an empty file), or a JsonEditError naming the first problem.
 * Offsets are those of the text after a byte order mark.
 */
export function jsonTree(text: string): Node | undefined {
  return parsedTree(withoutBom(text));
}

function parsedTree(text: string): Node | undefined {
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

/** Indentation unit and line ending of the file, so inserted lines look like their neighbours. */
export function formattingOf(text: string): { unit: string; eol: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return { unit: indent.startsWith('\t') ? '\t' : indent, eol };
}

export interface JsonSet {
  text: string;
  /** The shallowest path that did not exist before (what an uninstall may remove once empty). */
  insertedAt: JSONPath;
}

function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/**
 * One insertion, laid out by hand: jsonc-parser's own formatting re-indents the neighbouring value
 * too, so it is asked for the bare edit (where, and which comma) and only our text is indented, like
 * the siblings of the container it goes into. A container written on one line gets a one-line insert.
 */
function insertion(
  text: string,
  path: JSONPath,
  value: unknown,
  parentPath: JSONPath,
  array: boolean,
): string {
  const [edit, ...more] = modify(text, path, value, { isArrayInsertion: array });
  if (!edit || more.length > 0 || edit.length !== 0) return applyEdits(text, modify(text, path, value, {}));
  const root = jsonTree(text);
  const parent = root ? findNodeAtLocation(root, parentPath) : undefined;
  if (!parent) return applyEdits(text, [edit]);
  const span = text.slice(parent.offset, parent.offset + parent.length);
  if (!span.includes('\n')) return applyEdits(text, [edit]);
  const { unit, eol } = formattingOf(text);
  const comma = edit.content.startsWith(',') ? ',' : '';
  const body = edit.content.slice(comma.length);
  const siblings = parent.children ?? [];
  const last = siblings[siblings.length - 1];
  const parentIndent = lineIndent(text, parent.offset);
  const indent = last ? lineIndent(text, last.offset) : parentIndent + unit;
  const pretty = (v: unknown): string =>
    JSON.stringify(v, null, unit)
      .split('\n')
      .join(eol + indent);
  let laid: string;
  if (array) laid = pretty(JSON.parse(body));
  else {
    const [[key, inner]] = Object.entries(JSON.parse(`{${body}}`) as Record<string, unknown>) as [
      [string, unknown],
    ];
    laid = `${JSON.stringify(key)}: ${pretty(inner)}`;
  }
  const closing = parent.offset + parent.length - 1;
  const sameLineAsClose = !text.slice(edit.offset, closing).includes('\n');
  const content = `${comma}${eol}${indent}${laid}${sameLineAsClose ? eol + parentIndent : ''}`;
  return applyEdits(text, [{ offset: edit.offset, length: 0, content }]);
}

/** Where a value for `path` goes: the shallowest missing part of it, and its parent. */
function missingFrom(root: Node | undefined, path: JSONPath): JSONPath {
  for (let depth = 1; depth <= path.length; depth++) {
    const prefix = path.slice(0, depth);
    const node = root ? findNodeAtLocation(root, prefix) : undefined;
    if (!node) return prefix;
    if (depth < path.length && node.type !== 'object' && node.type !== 'array')
      throw new JsonEditError(`has "${prefix.join('.')}" that is not an object`);
  }
  return path;
}

/**
 * Sets `path` to `value`, creating the missing objects on the way. Each parent on the path must be an
 * object when it exists (a `servers` that is a string is refused, never replaced).
 */
export function setJsonValue(text: string, path: JSONPath, value: unknown): JsonSet {
  let insertedAt: JSONPath = [];
  const out = keepingBom(text, (body) => {
    const set = setInBody(body, path, value);
    insertedAt = set.insertedAt;
    return set.text;
  });
  return { text: out, insertedAt };
}

function setInBody(text: string, path: JSONPath, value: unknown): JsonSet {
  const root = jsonTree(text);
  const insertedAt = missingFrom(root, path);
  if (text.trim() === '') {
    const fresh = applyEdits('{}', modify('{}', path, value, {}));
    return { text: `${JSON.stringify(JSON.parse(fresh), null, 2)}\n`, insertedAt };
  }
  const exists = insertedAt.length === path.length && root && findNodeAtLocation(root, path);
  if (exists) {
    // Replacing our own earlier value: only its span changes.
    return { text: applyEdits(text, modify(text, path, value, {})), insertedAt };
  }
  const nested = path.slice(insertedAt.length).reduceRight<unknown>((v, k) => ({ [k]: v }), value);
  return { text: insertion(text, insertedAt, nested, insertedAt.slice(0, -1), false), insertedAt };
}

/** Appends `value` to the array at `path` (created when missing). */
export function appendJsonItem(text: string, path: JSONPath, value: unknown): JsonSet {
  const current = jsonValueAt(text, path);
  if (current === undefined) return setJsonValue(text, path, [value]);
  if (!Array.isArray(current)) throw new JsonEditError(`has "${path.join('.')}" that is not a list`);
  const at = [...path, current.length];
  return { text: keepingBom(text, (body) => insertion(body, at, value, path, true)), insertedAt: at };
}

/**
 * Cuts one member out of its container, from the end of the member before it (its comma included), so
 * the exact bytes an insertion added go again; the first member takes the separator after it instead.
 */
function cut(text: string, path: JSONPath): string {
  const root = jsonTree(text);
  const found = root ? findNodeAtLocation(root, path) : undefined;
  if (!found) return text;
  const member = found.parent?.type === 'property' ? found.parent : found;
  const container = member.parent;
  if (!container) return text;
  const siblings = container.children ?? [];
  const at = siblings.indexOf(member);
  const end = member.offset + member.length;
  if (at > 0) {
    const prev = siblings[at - 1]!;
    return text.slice(0, prev.offset + prev.length) + text.slice(end);
  }
  const next = siblings[at + 1];
  if (next) return text.slice(0, member.offset) + text.slice(next.offset);
  // The only member: the container keeps its own bytes around it, minus one line of ours.
  const open = container.offset + 1;
  const close = container.offset + container.length - 1;
  const inner = text.slice(open, close);
  const kept =
    inner.slice(0, member.offset - open).replace(/\r?\n[ \t]*$/, '') +
    inner.slice(end - open).replace(/^,/, '');
  return text.slice(0, open) + kept + text.slice(close);
}

/**
 * Removes `path`, then each parent down to `insertedAt` that is left empty (those we created), so an
 * uninstall after other edits leaves no empty `{}` of ours behind.
 */
export function removeJsonValue(text: string, path: JSONPath, insertedAt: JSONPath = path): string {
  return keepingBom(text, (body) => removeFromBody(body, path, insertedAt));
}

function removeFromBody(text: string, path: JSONPath, insertedAt: JSONPath): string {
  let out = cut(text, path);
  for (let depth = path.length - 1; depth >= insertedAt.length && depth > 0; depth--) {
    const parent = path.slice(0, depth);
    const left = jsonValueAt(out, parent);
    const empty = Array.isArray(left)
      ? left.length === 0
      : left !== null && typeof left === 'object' && Object.keys(left).length === 0;
    if (!empty) break;
    out = cut(out, parent);
  }
  return out;
}
