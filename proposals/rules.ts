/**
 * A proposal's `rules.json` (`src/core/rule-evidence.ts`), read back for `reject --rule` and
 * `proposals show`. The folder may have arrived with a clone, so the file is believed only when it
 * hashes to what the trusted manifest pinned at staging; a proposal without one lists no rules.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, errnoCode, errorMessage } from '../src/core/errors.js';
import { sha256Hex } from '../src/core/hash.js';
import type { ProposalLedger } from '../src/core/proposal-ledger.js';
import { RULES_FILE, rulesFileSchema, type LearnedRule } from '../src/core/rule-evidence.js';
import { locateProposal } from './adopt.js';
import { trustedManifest } from './trust.js';

/** The learned rules of proposal `id` with their evidence; [] when it was staged without `rules.json`. */
export async function readProposalRules(
  projectDir: string,
  id: string,
  ledger: ProposalLedger,
): Promise<LearnedRule[]> {
  const project = path.resolve(projectDir);
  const located = await locateProposal(project, id, ledger);
  const manifest = await trustedManifest(located.dir, located.id, ledger);
  if (manifest.rulesSha256 === undefined) return [];
  let text: string;
  try {
    text = await readFile(path.join(located.dir, RULES_FILE), 'utf8');
  } catch (err) {
    throw new InputError(
      `proposal ${located.id}: ${RULES_FILE} cannot be read (${errnoCode(err) ?? errorMessage(err)})`,
      'proposal_modified',
    );
  }
  if (sha256Hex(text) !== manifest.rulesSha256)
    throw new InputError(
      `proposal ${located.id} was modified after staging: ${RULES_FILE} is not the file it staged`,
      'proposal_modified',
    );
  const parsed = rulesFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new InputError(`proposal ${located.id}: ${RULES_FILE} is not a rules file`, 'proposal_modified');
  return parsed.data.rules;
}
