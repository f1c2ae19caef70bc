/** The registry of transcript sources. Adding a source = one harvester file + one line here. */
import { aider } from './aider/aider.js';
import { claude } from './claude-code/claude-code.js';
import { cline, roo } from './cline/cline.js';
import { codex } from './codex/codex.js';
import { copilotCli } from './copilot-cli/copilot-cli.js';
import { copilot } from './copilot-vscode/copilot-vscode.js';
import { gemini } from './gemini/gemini.js';
import { pi } from './pi/pi.js';
import { cursorCli } from './cursor-cli/cursor-cli.js';
import { opencode } from './opencode/opencode.js';
import { goose } from './goose/goose.js';
import { cursorIde } from './cursor-ide/cursor-ide.js';
import type { Harvester } from './types.js';
import type { SourceId } from '../src/core/session.js';

export const harvesters = {
  claude,
  codex,
  copilot,
  'copilot-cli': copilotCli,
  gemini,
  pi,
  cline,
  roo,
  'cursor-cli': cursorCli,
  aider,
  opencode,
  goose,
  'cursor-ide': cursorIde,
} satisfies Record<SourceId, Harvester>;

export const SOURCE_IDS = Object.keys(harvesters) as SourceId[];

export function harvesterFor(id: SourceId): Harvester {
  return harvesters[id];
}
