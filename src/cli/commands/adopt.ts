/** `adopt`: apply a staged proposal (or a reviewed subset of it) to the live files. */
import { Command } from 'commander';
import { assertProposalId } from '../../../proposals/index.js';
import { UsageError } from '../../core/errors.js';
import { addCommonOptions } from '../options.js';
import { cliContext, openDb, projectConfig, commandProject, type CommonFlags } from '../context.js';
import { printJson, say } from '../output.js';
import { adoptAction, adoptedLines } from '../proposal-actions.js';
import { commitFailure } from '../proposal-session.js';

interface AdoptFlags extends CommonFlags {
  skill?: string[];
  allSkills?: boolean;
  memory?: boolean;
  commit?: boolean;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const adoptCommand = (): Command =>
  addCommonOptions(new Command('adopt'))
    .description(
      'Write a staged proposal to its live files as one transaction, with backups and a receipt. Refused when a live file changed since the night, or the proposal was adopted, rejected or superseded.',
    )
    .argument('[id]', 'proposal id (default: the latest proposal of the project)')
    .option('--skill <name>', 'adopt only this skill of the proposal (repeatable)', collect)
    .option('--all-skills', 'adopt every skill of the proposal, not the memory document')
    .option('--memory', 'adopt the memory document (with --skill/--all-skills: as well)')
    .option('--commit', 'commit exactly the changed files with git (config adopt_commit)')
    .option('--no-commit', 'do not commit, whatever adopt_commit says')
    .option('--demo', 'adopt into the bundled demo project (after `run --demo`)')
    .action(async (id: string | undefined, flags: AdoptFlags, cmd: Command) => {
      // Checked first: an empty id (an unset $ID in a script) is refused, never read as "the latest".
      if (id !== undefined) assertProposalId(id);
      const ctx = cliContext(flags);
      const project = commandProject(ctx, flags);
      if (flags.skill?.some((s) => s.trim() === '')) throw new UsageError('--skill names must be non-empty');
      const typedCommit = cmd.getOptionValueSource('commit') === 'cli';
      const commit = typedCommit
        ? flags.commit === true
        : projectConfig(ctx, project, cmd).config.adopt_commit;
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
    });
