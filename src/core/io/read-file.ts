/** Reading a file that may not be there: missing is null, any other failure is thrown as it is. */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isMissingPathError } from '../errors.js';

/** The file's bytes, or null when it (or a parent folder) does not exist. */
export async function readFileIfExists(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (err) {
    if (isMissingPathError(err)) return null;
    throw err;
  }
}

/** The file's text, or null when it (or a parent folder) does not exist. */
export function readTextIfExistsSync(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (isMissingPathError(err)) return null;
    throw err;
  }
}
