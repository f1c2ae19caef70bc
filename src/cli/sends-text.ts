/**
 * `run --explain-sends` for people: every stored text a real backend would receive, by task and role,
 * one line each and cut short (its full length shown; `--json` has every text whole), and the dry-run
 * plan's short form of the same list.
 */
import type {
  Destination,
  RoleSends,
  SendsExplanation,
  SendsSummary,
  SentText,
} from '../night/explain-sends.js';
import { displayText, say } from './output.js';

/** Characters of a text shown on its line. */
export const SHOWN_CHARS = 160;

function shortText(t: SentText): string {
  const line = displayText(t.text);
  const cut = line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS)}…` : line;
  return `"${cut}"`;
}

/** Where a role's requests go besides the backend's name. */
function where(d: Destination): string {
  if (d.backend === 'handoff') return ' (queued for you or your agent to answer)';
  if (d.backend === 'claude-code' || d.backend === 'codex')
    return ' (your installed CLI, with its own login)';
  return d.base_url === '' ? " at the provider's default endpoint" : ` at ${displayText(d.base_url)}`;
}

function destination(d: Destination): string {
  if (!d.leaves_machine) return `${d.role} -> mock (stays on this machine)`;
  const model = d.model === '' ? "(the backend's default model)" : d.model;
  return `${d.role} -> ${d.backend} ${displayText(model)}${where(d)}`;
}

function renderSends(s: RoleSends, indent: string): void {
  say(`${indent}${s.role} (${s.prompt} prompt, to the ${s.to}; ${s.when}):`);
  if (s.texts.length === 0 && s.model_parts.length === 0) say(`${indent}  no stored text`);
  for (const t of s.texts)
    say(`${indent}  ${t.field} (${t.chars} chars${t.when ? `; ${t.when}` : ''}): ${shortText(t)}`);
  for (const m of s.model_parts) say(`${indent}  + written tonight by a model: ${m}`);
}

export function renderExplanation(e: SendsExplanation): void {
  say('[sleep] what a real backend would receive for this night, after redaction; nothing was sent');
  if (e.offline)
    say(
      '[sleep] every role is the mock backend: nothing leaves the machine tonight; this is what a real backend would receive',
    );
  for (const d of e.destinations) say(`[sleep] ${destination(d)}`);
  say('[sleep] documents:');
  for (const d of e.documents)
    say(`   ${d.name} ${displayText(d.path)} (${d.chars} chars): with ${d.sent_with}`);
  say('[sleep] the night as a whole:');
  for (const s of e.night) renderSends(s, '   ');
  for (const t of e.tasks) {
    const label = t.label === '' ? '' : ` "${displayText(t.label)}"`;
    say(`[sleep] task ${t.id}${label} (${t.split}, ${t.reference_kind}):`);
    for (const s of t.sends) renderSends(s, '   ');
  }
  for (const k of e.kinds) {
    say(`[sleep] kind ${k.id} "${displayText(k.label)}" (mining):`);
    for (const s of k.sends) renderSends(s, '   ');
  }
  if (e.tasks.length === 0) say('[sleep] no task: the night would attempt nothing');
  say(
    `[sleep] ${e.redactions} secret${e.redactions === 1 ? '' : 's'} redacted on the way out (stored texts were redacted when they were read)`,
  );
  for (const n of e.notes) say(`[sleep] note: ${displayText(n)}`);
  say('[sleep] every text in full: the same command with --json');
}

/** The plan's lines: per role, what would go out, and where to read it all. */
export function renderSendsSummary(s: SendsSummary, command: string): void {
  const to = (role: 'target' | 'optimizer'): string => {
    const d = s.destinations.find((x) => x.role === role);
    return d ? destination(d) : role;
  };
  const line = (name: string, r: { prompts: number; texts: number; chars: number }): string =>
    `${name} ${r.prompts} prompts with ${r.texts} stored texts (${r.chars} chars)`;
  say(`[sleep] sends: ${to('target')}: ${line('attempt', s.by_role.target)}`);
  say(
    `[sleep] sends: ${to('optimizer')}: ${line('judge', s.by_role['optimizer-judge'])}; ${line('reflect', s.by_role['optimizer-reflect'])}; ${line('mining', s.by_role.miner)}`,
  );
  for (const d of s.documents)
    say(`[sleep] sends: ${d.name} document (${d.chars} chars) with ${d.sent_with}`);
  say(
    `[sleep] the texts, after redaction (${s.redactions} secrets redacted): ${command} (with the same backend flags)`,
  );
}
