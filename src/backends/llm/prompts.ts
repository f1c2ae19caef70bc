/**
 * Prompt templates live in `templates/prompts/<name>.md`: the system prompt, a line `=== USER ===`, then
 * the user message. `{{name}}` placeholders are filled in one pass (a value containing `{{x}}` is not
 * expanded again). Every template starts with the replay marker, so an agent session a replay starts is
 * recognised and never harvested back.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IoError, errorMessage } from '../../core/errors.js';
import { REPLAY_MARKER } from '../../core/machine-sessions.js';
import { templatesDir } from '../../config/paths.js';

export const PROMPT_NAMES = [
  'attempt',
  'reflect',
  'judge',
  'repair',
  'mine-tasks',
  'merge-edits',
  'rewrite-rules',
  'label-sessions',
  'read-follow-ups',
  'rule-from-correction',
] as const;
export type PromptName = (typeof PROMPT_NAMES)[number] | (string & {});

const SEPARATOR = /^=== USER ===$/m;
const cache = new Map<string, { system: string; user: string }>();

function load(name: string): { system: string; user: string } {
  const cached = cache.get(name);
  if (cached) return cached;
  const file = path.join(templatesDir(), 'prompts', `${name}.md`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new IoError(`cannot read prompt template ${file}: ${errorMessage(err)}`);
  }
  const match = SEPARATOR.exec(text);
  const parts = match
    ? { system: text.slice(0, match.index).trim(), user: text.slice(match.index + match[0].length).trim() }
    : { system: '', user: text.trim() };
  cache.set(name, parts);
  return parts;
}

export function fill(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{([a-z_]+)\}\}/g, (whole, key: string) => vars[key] ?? whole);
}

/** The system prompt and user message of a template, filled; the marker is always present. */
export function renderPrompt(
  name: PromptName,
  vars: Readonly<Record<string, string>>,
): { system: string; user: string } {
  const t = load(name);
  const all = { marker: REPLAY_MARKER, ...vars };
  const system = fill(t.system, all);
  const user = fill(t.user, all);
  return system.includes(REPLAY_MARKER) || user.includes(REPLAY_MARKER)
    ? { system, user }
    : { system: `${REPLAY_MARKER}\n${system}`, user };
}
