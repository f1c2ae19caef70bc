/** The registry of transcript sources. Adding a source = one harvester file + one line here. */
import { claude } from './claude-code.js';
import { codex } from './codex.js';
import { copilotCli } from './copilot-cli.js';
import { copilot } from './copilot-vscode.js';
import type { Harvester, SourceId } from './types.js';

export const harvesters = { claude, codex, copilot, 'copilot-cli': copilotCli } satisfies Record<
  SourceId,
  Harvester
>;

export const SOURCE_IDS = Object.keys(harvesters) as SourceId[];

export function harvesterFor(id: SourceId): Harvester {
  return harvesters[id];
}
