/**
 * Replay of VS Code's chat session op log (`chatSessions/<id>.jsonl`, VS Code ≥ 1.109): a `kind:0`
 * line holds the whole session state, later lines patch it. See harvest-spec §4.2.
 *
 *   {"kind":0,"v":{…}}                 replace the whole state
 *   {"kind":1,"k":[path…],"v":x}       set the value at path (string keys, integer indexes)
 *   {"kind":2,"k":[path…],"v":[…],"i"?} array splice: truncate to length i (when given), append v
 *   {"kind":3,"k":[path…]}             delete the key or index
 *
 * Ops before the first `kind:0`, ops with paths that do not exist and unknown kinds are ignored.
 */
import { readJsonlLines } from '../../src/core/io/jsonl.js';
import { isRecord } from './util.js';
import type { ParseOptions } from '../types.js';

export interface OpLogReplay {
  /** The session state after every op, or undefined when the log never set one. */
  state: Record<string, unknown> | undefined;
  /** Lines that were not JSON objects. */
  badLines: number;
  /** Byte offset just past the last complete line. */
  endOffset: number;
}

type Container = Record<string, unknown> | unknown[];
type PathPart = string | number;

/** Keys that would reach an object's prototype instead of its own data. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Reads and replays a whole op log. Content problems never throw; reading the file can reject. */
export function replayOpLogFile(filePath: string, options: ParseOptions = {}): OpLogReplay {
  let state: Record<string, unknown> | undefined;
  let badLines = 0;
  let endOffset = 0;
  for (const line of readJsonlLines(filePath, 0, options)) {
    endOffset = line.endOffset;
    if (line.bad || !isRecord(line.value)) {
      badLines++;
      continue;
    }
    state = applyOp(state, line.value);
  }
  return { state, badLines, endOffset };
}

/** Applies one op and returns the new state (the same object, patched, unless the op replaced it). */
export function applyOp(
  state: Record<string, unknown> | undefined,
  op: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const kind = op['kind'];
  if (kind === 0) return isRecord(op['v']) ? op['v'] : state;
  if (state === undefined) return undefined;
  const keyPath = opPath(op['k']);
  if (keyPath === undefined) return state;
  if (kind === 1) return setAt(state, keyPath, op['v']);
  if (kind === 2) spliceAt(state, keyPath, op['v'], op['i']);
  else if (kind === 3) deleteAt(state, keyPath);
  return state;
}

function opPath(k: unknown): PathPart[] | undefined {
  if (!Array.isArray(k)) return undefined;
  const parts: PathPart[] = [];
  for (const part of k) {
    if (typeof part === 'number' && Number.isInteger(part) && part >= 0) parts.push(part);
    else if (typeof part === 'string' && !FORBIDDEN_KEYS.has(part)) parts.push(part);
    else return undefined;
  }
  return parts;
}

function setAt(state: Record<string, unknown>, keyPath: PathPart[], value: unknown): Record<string, unknown> {
  if (keyPath.length === 0) return isRecord(value) ? value : state;
  const parent = containerAt(state, keyPath.slice(0, -1));
  const last = keyPath[keyPath.length - 1];
  if (parent === undefined || last === undefined) return state;
  if (Array.isArray(parent)) {
    // An index one past the end appends; further out would leave holes, so it is ignored.
    if (typeof last === 'number' && last <= parent.length) parent[last] = value;
  } else if (typeof last === 'string') {
    parent[last] = value;
  }
  return state;
}

function spliceAt(state: Record<string, unknown>, keyPath: PathPart[], value: unknown, index: unknown): void {
  const target = containerAt(state, keyPath);
  if (!Array.isArray(target)) return;
  if (typeof index === 'number' && Number.isInteger(index) && index >= 0) target.splice(index);
  if (!Array.isArray(value)) return;
  // One push per item: spreading a very long array into push() can overflow the call stack.
  for (const item of value) target.push(item);
}

function deleteAt(state: Record<string, unknown>, keyPath: PathPart[]): void {
  const parent = containerAt(state, keyPath.slice(0, -1));
  const last = keyPath[keyPath.length - 1];
  if (parent === undefined || last === undefined) return;
  if (Array.isArray(parent)) {
    if (typeof last === 'number' && last < parent.length) parent.splice(last, 1);
  } else if (typeof last === 'string') {
    delete parent[last];
  }
}

/** The object or array at a path, or undefined when any step does not exist. */
function containerAt(state: Record<string, unknown>, keyPath: PathPart[]): Container | undefined {
  let current: Container = state;
  for (const part of keyPath) {
    const child = childOf(current, part);
    if (!isRecord(child) && !Array.isArray(child)) return undefined;
    current = child;
  }
  return current;
}

function childOf(container: Container, part: PathPart): unknown {
  if (Array.isArray(container)) return typeof part === 'number' ? container[part] : undefined;
  if (typeof part !== 'string' || !Object.hasOwn(container, part)) return undefined;
  return container[part];
}
