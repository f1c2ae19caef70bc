/** `install` / `uninstall` of one agent's integration: plan (read and edit in memory), then apply. */
import type { Env } from '../config/paths.js';
import { applyInstall, applyUninstall } from './apply.js';
import { Ledger } from './ledger.js';
import { planInstall, planUninstall, type FileChange } from './plan.js';
import { agentPieces, type Agent, type TargetContext } from './targets.js';

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

export function install(req: InstallRequest): InstallResult {
  const plan = planInstall(agentPieces(req.agent, targetContext(req)), new Ledger(req.home));
  if (!req.dryRun) applyInstall(plan, req.home);
  return result(req, plan, []);
}

export function uninstall(req: InstallRequest): InstallResult {
  const plan = planUninstall(agentPieces(req.agent, targetContext(req)), new Ledger(req.home));
  const removed = req.dryRun
    ? plan.flatMap((c) => (c.after === undefined ? c.folders : []))
    : applyUninstall(plan, req.home);
  return result(req, plan, removed);
}
