/** `install` / `uninstall` of one agent's integration: plan (read and edit in memory), then apply. */
import type { Env } from '../config/paths.js';
import { applyInstall, applyUninstall } from './apply.js';
import { Ledger } from './ledger.js';
import { planInstall, planLegacyRemoval, planUninstall, type FileChange } from './plan.js';
import { agentPieces, legacyPieces, type Agent, type TargetContext } from './targets.js';

export interface InstallRequest {
  agent: Agent;
  /** The state home (ledger and backups). */
  home: string;
  env: Env;
  project: string | undefined;
  node: string;
  cli: string;
  integrations: string;
  dryRun: boolean;
}

export interface InstallResult {
  agent: Agent;
  scope: 'user' | 'project';
  project: string | null;
  dry_run: boolean;
  changed: boolean;
  files: FileChange[];
  folders_removed: string[];
}

function targetContext(req: InstallRequest): TargetContext {
  return { env: req.env, project: req.project, node: req.node, cli: req.cli, integrations: req.integrations };
}

function result(req: InstallRequest, files: FileChange[], removed: string[]): InstallResult {
  return {
    agent: req.agent,
    scope: req.project ? 'project' : 'user',
    project: req.project ?? null,
    dry_run: req.dryRun,
    changed: files.some((f) => f.after !== f.before) || removed.length > 0,
    files,
    folders_removed: removed,
  };
}

/** Folders an uninstall plan would remove once empty (a dry run's answer). */
const foldersOf = (plan: readonly FileChange[]): string[] =>
  plan.flatMap((c) => (c.after === undefined ? c.folders : []));

export function install(req: InstallRequest): InstallResult {
  const ctx = targetContext(req);
  const ledger = new Ledger(req.home);
  const plan = planInstall(agentPieces(req.agent, ctx), ledger);
  // An older install's entry moves rather than stays: the agent would otherwise start the server twice.
  const moved = planLegacyRemoval(legacyPieces(req.agent, ctx), ledger);
  let removed = foldersOf(moved);
  if (!req.dryRun) {
    applyInstall(plan, req.home, req.agent);
    removed = applyUninstall(moved, req.home);
  }
  // A legacy file that no longer holds our entry needs no line (its ledger record is dropped all the same).
  const shown = moved
    .filter((c) => c.action !== 'absent')
    .map((c) => ({ ...c, note: 'an older install put our entry here, where the agent no longer reads it' }));
  return result(req, [...plan, ...shown], removed);
}

/** A change left undone because another agent's install still relies on the file's entry. */
function keptForOthers(c: FileChange, others: readonly string[]): FileChange {
  const names = others.join(' and ');
  return {
    ...c,
    action: 'kept',
    after: c.before,
    folders: [],
    note: `still used by the ${names} install (\`uninstall ${others[0] ?? ''}\` takes it out); left as it is`,
  };
}

export function uninstall(req: InstallRequest): InstallResult {
  const ctx = targetContext(req);
  const ledger = new Ledger(req.home);
  const shared = new Set<string>();
  const plan = [
    ...planUninstall(agentPieces(req.agent, ctx), ledger),
    ...planLegacyRemoval(legacyPieces(req.agent, ctx), ledger),
  ].map((c) => {
    const others = c.action === 'absent' ? [] : ledger.otherAgents(c.file, req.agent);
    if (others.length === 0) return c;
    shared.add(c.file);
    return keptForOthers(c, others);
  });
  const removed = req.dryRun ? foldersOf(plan) : applyUninstall(plan, req.home);
  if (!req.dryRun && shared.size > 0) {
    const after = new Ledger(req.home);
    for (const file of shared) after.dropAgent(file, req.agent);
    after.save();
  }
  // Its record changed even where no file did: this agent no longer relies on the shared entry.
  return { ...result(req, plan, removed), ...(shared.size > 0 ? { changed: true } : {}) };
}
