/** `adopt`: apply a staged proposal to the live files (latest by default). */
import { Command } from 'commander';
import { adoptProposal } from '../../../proposals/index.js';
import { demoProjectDir } from '../../night/demo.js';
import { markProposal } from '../../store/proposals-repo.js';
import { addCommonOptions } from '../options.js';
import { cliContext, openDb, resolveProject, type CommonFlags } from '../context.js';
import { printJson, say } from '../output.js';

export const adoptCommand = (): Command =>
  addCommonOptions(new Command('adopt'))
    .description(
      'Write a staged proposal to its live files, atomically and with backups. Refused when a live file changed since the night or the proposal was already adopted.',
    )
    .argument('[id]', 'proposal id (default: the latest proposal of the project)')
    .option('--demo', 'adopt into the bundled demo project (after `run --demo`)')
    .action(async (id: string | undefined, flags: CommonFlags) => {
      const ctx = cliContext(flags);
      const project = resolveProject(flags.demo ? demoProjectDir(ctx.home) : flags.project);
      const receipt = await adoptProposal({
        projectDir: project,
        ...(id ? { id } : {}),
        now: ctx.clock.now(),
      });
      const db = openDb(ctx);
      try {
        markProposal(db, project, receipt.id, 'adopted', ctx.clock.now());
      } finally {
        db.close();
      }
      if (ctx.json) {
        printJson({
          ok: true,
          proposal_id: receipt.id,
          proposal_dir: receipt.dir,
          updated_paths: receipt.updatedPaths,
          targets: receipt.targets,
        });
        return;
      }
      say(`[sleep] adopted ${receipt.id}`);
      for (const p of receipt.updatedPaths) say(`   -> ${p}`);
    });
