/** Reading a skill file a config names. */
import { readFileSync } from 'node:fs';
import { InputError, errorMessage } from '../../core/errors.js';

export function readSkill(file: string): string {
  if (file === '') return '';
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: cannot read the skill: ${errorMessage(err)}`);
  }
}
