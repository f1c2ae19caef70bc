/** `adopt`: apply a staged proposal (or a reviewed subset of it) to the live files. */
// The command's action; its definition (options, help text) is `adopt.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import type { Command } from 'commander';
import { assertProposalId } from '../../../proposals/index.js';
import { UsageError } from '../../core/errors.js';
import { cliContext, openDb, commandProject, type CommonFlags } from '../context.js';
import { projectConfig } from '../project-config.js';
import { printJson, say } from '../output.js';
import { adoptAction, adoptedLines } from '../proposal-actions.js';
import { commitFailure } from '../proposal-session.js';

export interface AdoptFlags extends CommonFlags {
  skill?: string[];
  allSkills?: boolean;
  memory?: boolean;
  commit?: boolean;
}

export async function doAdopt(id: string | undefined, flags: AdoptFlags, cmd: Command): Promise<void> {
  // Checked first: an empty id (an unset $ID in a script) is refused, never read as "the latest".
  if (id !== undefined) assertProposalId(id);
  const ctx = cliContext(flags);
  const project = commandProject(ctx, flags);
  if (flags.skill?.some((s) => s.trim() === '')) throw new UsageError('--skill names must be non-empty');
  const typedCommit = cmd.getOptionValueSource('commit') === 'cli';
  const commit = typedCommit ? flags.commit === true : projectConfig(ctx, project, cmd).config.adopt_commit;
  const db = openDb(ctx, flags);
  try {
    const receipt = await adoptAction({
      db,
      project,
      now: ctx.clock.now(),
      logger: ctx.logger,
      ...(id !== undefined ? { id } : {}),
      select: {
        ...(flags.skill ? { skills: flags.skill.map((s) => s.trim()) } : {}),
        ...(flags.allSkills ? { allSkills: true } : {}),
        ...(flags.memory ? { memory: true } : {}),
      },
      commit,
    });
    if (ctx.json) {
      commitFailure('adopt', receipt.id, receipt.git);
      printJson({
        ok: true,
        proposal_id: receipt.id,
        proposal_dir: receipt.dir,
        updated_paths: receipt.updatedPaths,
        targets: receipt.targets,
        ...(receipt.git ? { git: receipt.git } : {}),
      });
      return;
    }
    adoptedLines(receipt, say);
  } finally {
    db.close();
  }
}
