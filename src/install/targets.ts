/**
 * What each agent's integration is: which files, where that agent reads them (user level or the
 * project), and what goes in them. Pure: no file is read here except the package's own integration files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JSONPath } from 'jsonc-parser';
import { UsageError } from '../core/errors.js';
import { userHome, type Env } from '../config/paths.js';
import { cliCommand, shellWord, withCli } from './agent-text.js';
import { plainText } from './safe-path.js';

export const AGENTS = ['claude-code', 'codex', 'copilot', 'mcp'] as const;
export type Agent = (typeof AGENTS)[number];

export const SERVER_NAME = 'skillopt-sleep';
/** The part of our hook command that tells our SessionEnd entry from the user's other hooks. */
export const HOOK_SCRIPT_TAIL = path.join('integrations', 'claude-code', 'hooks', 'session-end.mjs');

interface Placed {
  /** The file as the agent names it. */
  path: string;
  /** The folder it must stay inside (symlinks resolving elsewhere are refused). */
  root: string;
}
/** A file that is entirely ours (a skill or command copy). */
export interface OwnedFile extends Placed {
  kind: 'file';
  content: string;
}
/** One property of a JSON config object (an MCP server entry). */
export interface JsonEntry extends Placed {
  kind: 'json';
  key: JSONPath;
  value: Record<string, unknown>;
}
/** One item of a settings file's `hooks.<event>` list. */
export interface HookEntry extends Placed {
  kind: 'hook';
  event: string;
  value: { hooks: { type: 'command'; command: string; timeout: number }[] };
}
/** One table of a TOML config, appended as a marked block. */
export interface TomlTable extends Placed {
  kind: 'toml';
  table: string[];
  entries: Record<string, unknown>;
}
export type Piece = OwnedFile | JsonEntry | HookEntry | TomlTable;

export interface TargetContext {
  env: Env;
  /** The project folder with --project, else undefined (user level). */
  project: string | undefined;
  /** Absolute paths of this Node.js, the installed CLI entry and the package's integrations folder. */
  node: string;
  cli: string;
  integrations: string;
}

export function parseAgent(name: string): Agent {
  if ((AGENTS as readonly string[]).includes(name)) return name as Agent;
  throw new UsageError(`unknown agent "${name}": give one of ${AGENTS.join(', ')}`);
}

/** A shipped skill or command, naming this installation's CLI by absolute path. */
function agentText(ctx: TargetContext, ...parts: string[]): string {
  const text = readFileSync(path.join(ctx.integrations, ...parts), 'utf8');
  return withCli(text, cliCommand(ctx.node, ctx.cli));
}

/** The folder an agent keeps its own config in: its env override when absolute, else `~/.<name>`. */
function agentHome(ctx: TargetContext, variable: string, dotName: string): Placed {
  const home = userHome(ctx.env);
  const override = ctx.env[variable];
  if (override && path.isAbsolute(override)) return { path: override, root: override };
  return { path: path.join(home, dotName), root: home };
}

function serverCommand(ctx: TargetContext): { command: string; args: string[] } {
  return {
    command: plainText('the Node.js path', ctx.node),
    args: [plainText('the CLI path', ctx.cli), 'mcp'],
  };
}

function claudeCode(ctx: TargetContext): Piece[] {
  const root = ctx.project ?? userHome(ctx.env);
  const dir = path.join(root, '.claude');
  const script = path.join(ctx.integrations, 'claude-code', 'hooks', 'session-end.mjs');
  // One shell word each, as the hook runs through sh: a `"` or `$` in a path stays literal.
  const command = `${shellWord(plainText('the Node.js path', ctx.node))} ${shellWord(plainText('the hook path', script))}`;
  return [
    {
      kind: 'file',
      root,
      path: path.join(dir, 'skills', 'skillopt-sleep', 'SKILL.md'),
      content: agentText(ctx, 'claude-code', 'skills', 'skillopt-sleep', 'SKILL.md'),
    },
    {
      kind: 'file',
      root,
      path: path.join(dir, 'commands', 'skillopt-sleep-handoff.md'),
      content: agentText(ctx, 'claude-code', 'commands', 'skillopt-sleep-handoff.md'),
    },
    {
      kind: 'hook',
      root,
      path: path.join(dir, 'settings.json'),
      event: 'SessionEnd',
      value: { hooks: [{ type: 'command', command, timeout: 5 }] },
    },
  ];
}

function codex(ctx: TargetContext): Piece[] {
  const skillRoot = ctx.project ?? userHome(ctx.env);
  const config = ctx.project
    ? { path: path.join(ctx.project, '.codex'), root: ctx.project }
    : agentHome(ctx, 'CODEX_HOME', '.codex');
  return [
    {
      kind: 'file',
      root: skillRoot,
      path: path.join(skillRoot, '.agents', 'skills', 'skillopt-sleep', 'SKILL.md'),
      content: agentText(ctx, 'codex', 'skills', 'skillopt-sleep', 'SKILL.md'),
    },
    {
      kind: 'toml',
      root: config.root,
      path: path.join(config.path, 'config.toml'),
      table: ['mcp_servers', SERVER_NAME],
      entries: serverCommand(ctx),
    },
  ];
}

/**
 * A project's MCP server where both Claude Code and Copilot (CLI, and VS Code's Copilot agent) read it:
 * `.mcp.json`, `mcpServers`. `install mcp --project` and `install copilot --project` write this one
 * entry; `tools` is the field Copilot CLI requires, which Claude Code ignores.
 */
function projectMcpJson(ctx: TargetContext, project: string): JsonEntry {
  return {
    kind: 'json',
    root: project,
    path: path.join(project, '.mcp.json'),
    key: ['mcpServers', SERVER_NAME],
    value: { type: 'stdio', ...serverCommand(ctx), env: {}, tools: ['*'] },
  };
}

function copilot(ctx: TargetContext): Piece[] {
  if (ctx.project) return [projectMcpJson(ctx, ctx.project)];
  const home = agentHome(ctx, 'COPILOT_HOME', '.copilot');
  return [
    {
      kind: 'json',
      root: home.root,
      path: path.join(home.path, 'mcp-config.json'),
      key: ['mcpServers', SERVER_NAME],
      value: { type: 'local', ...serverCommand(ctx), tools: ['*'] },
    },
  ];
}

function mcp(ctx: TargetContext): Piece[] {
  if (ctx.project) return [projectMcpJson(ctx, ctx.project)];
  const home = userHome(ctx.env);
  return [
    {
      kind: 'json',
      root: home,
      path: path.join(home, '.claude.json'),
      key: ['mcpServers', SERVER_NAME],
      value: { type: 'stdio', ...serverCommand(ctx), env: {} },
    },
  ];
}

/** The pieces of one agent's integration, at the user level or in the project. */
export function agentPieces(agent: Agent, ctx: TargetContext): Piece[] {
  switch (agent) {
    case 'claude-code':
      return claudeCode(ctx);
    case 'codex':
      return codex(ctx);
    case 'copilot':
      return copilot(ctx);
    case 'mcp':
      return mcp(ctx);
  }
}

/**
 * Where an older install put an agent's entry and the agent no longer reads it: VS Code's
 * `.vscode/mcp.json` (`servers`), which Copilot CLI does not read and VS Code now calls legacy. Install
 * and uninstall both take our entry out of it, when the ledger says install wrote it.
 */
export function legacyPieces(agent: Agent, ctx: TargetContext): Piece[] {
  if (agent !== 'copilot' || !ctx.project) return [];
  return [
    {
      kind: 'json',
      root: ctx.project,
      path: path.join(ctx.project, '.vscode', 'mcp.json'),
      key: ['servers', SERVER_NAME],
      value: { type: 'stdio', ...serverCommand(ctx) },
    },
  ];
}
