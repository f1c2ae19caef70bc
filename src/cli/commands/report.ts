/**
 * `report --html`: a project's proposal (default: the latest) and its nights as one self-contained HTML
 * file, the dashboard's own views with their assets inlined, to attach to a pull request or share.
 */
import { Command } from 'commander';
import type { ReportFlags } from './report-action.js';

export const reportCommand = (): Command =>
  new Command('report')
    .description(
      "Write a proposal (default: the project's latest) and the project's nights as one self-contained HTML page (no network needed to open it).",
    )
    .option('--project <dir>', 'project folder (default: the current folder)')
    .argument('[id]', 'the proposal (default: the latest)')
    .option('--html', 'write HTML (the only format; the text report is `proposals show <id>`)')
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--force', 'with --out: overwrite an existing file')
    .action(async (id: string | undefined, flags: ReportFlags) =>
      (await import('./report-action.js')).doReport(id, flags),
    );
