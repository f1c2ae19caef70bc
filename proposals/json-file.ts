/** Reading our own JSON files back: every failure is an InputError saying which file and what is wrong. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { InputError, errorMessage } from '../src/core/errors.js';
import { errorCode, isMissingPathError } from './atomic-write.js';

export async function readJsonFile<T>(file: string, schema: z.ZodType<T>, owner: string): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const reason = isMissingPathError(err)
      ? 'is missing'
      : `cannot be read (${errorCode(err) ?? errorMessage(err)})`;
    throw new InputError(`${owner}: ${path.basename(file)} ${reason}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${owner}: ${path.basename(file)} is not valid JSON (${errorMessage(err)})`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new InputError(`${owner}: ${path.basename(file)} is malformed: ${describeIssues(parsed.error)}`);
  }
  return parsed.data;
}

/** Like readJsonFile, but null when the file does not exist. */
export async function readOptionalJsonFile<T>(
  file: string,
  schema: z.ZodType<T>,
  owner: string,
): Promise<T | null> {
  try {
    await readFile(file);
  } catch (err) {
    if (isMissingPathError(err)) return null;
  }
  return readJsonFile(file, schema, owner);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
