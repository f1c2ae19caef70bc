/**
 * Reading our own JSON files back through a zod schema, sync or async: every failure is one InputError
 * naming the owner, the file and the problem (missing, unreadable, not JSON, which keys are wrong).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { InputError, errnoCode, errorMessage, isMissingPathError } from '../errors.js';
import { nestsDeeperThan, tooDeep } from './json-depth.js';

export type JsonCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

/** JSON.parse, then the schema; the problem reads after a file's name ("is not valid JSON (…)"). */
export function parseJsonWith<T>(text: string, schema: z.ZodType<T>): JsonCheck<T> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `is not valid JSON (${errorMessage(err)})` };
  }
  if (nestsDeeperThan(data)) return { ok: false, problem: tooDeep() };
  const parsed = schema.safeParse(data);
  if (!parsed.success) return { ok: false, problem: `is malformed: ${describeIssues(parsed.error)}` };
  return { ok: true, value: parsed.data };
}

/** The first few issues, each as `key.path: message` (`(root)` for the whole value). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

export async function readJsonFile<T>(file: string, schema: z.ZodType<T>, owner: string): Promise<T> {
  const value = await readOptionalJsonFile(file, schema, owner);
  if (value === null) throw new InputError(`${owner}: ${path.basename(file)} is missing`);
  return value;
}

/** Like readJsonFile, but null when the file (or a parent folder) does not exist. */
export async function readOptionalJsonFile<T>(
  file: string,
  schema: z.ZodType<T>,
  owner: string,
): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (isMissingPathError(err)) return null;
    throw unreadable(file, owner, err);
  }
  return checked(file, owner, parseJsonWith(text, schema));
}

export function readJsonFileSync<T>(file: string, schema: z.ZodType<T>, owner: string): T {
  const value = readOptionalJsonFileSync(file, schema, owner);
  if (value === null) throw new InputError(`${owner}: ${path.basename(file)} is missing`);
  return value;
}

/** Like readJsonFileSync, but null when the file (or a parent folder) does not exist. */
export function readOptionalJsonFileSync<T>(file: string, schema: z.ZodType<T>, owner: string): T | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (isMissingPathError(err)) return null;
    throw unreadable(file, owner, err);
  }
  return checked(file, owner, parseJsonWith(text, schema));
}

/**
 * For files that are only a hint (a status to show, a queued answer): null when the file is missing,
 * unreadable, not JSON or not the schema's shape.
 */
export function readJsonFileOrNull<T>(file: string, schema: z.ZodType<T>): T | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const check = parseJsonWith(text, schema);
  return check.ok ? check.value : null;
}

function unreadable(file: string, owner: string, err: unknown): InputError {
  return new InputError(
    `${owner}: ${path.basename(file)} cannot be read (${errnoCode(err) ?? errorMessage(err)})`,
  );
}

function checked<T>(file: string, owner: string, check: JsonCheck<T>): T {
  if (!check.ok) throw new InputError(`${owner}: ${path.basename(file)} ${check.problem}`);
  return check.value;
}
