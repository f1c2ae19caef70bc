/**
 * A source-independent session plan: prompts, assistant steps with tool calls and their outputs,
 * final answers, timing, planted secrets. Each source writer renders the same plan in its format.
 */
import type { Filler } from './filler.js';
import type { Project, Slots } from './project.js';
import { fill, makeSlots } from './project.js';
import type { Rng } from './rng.js';
import type { Secret } from './secrets.js';
import { SECRET_KINDS, makeSecret } from './secrets.js';
import type { TaskFamily } from './words.js';
import { CORRECTIONS, ERRORS, FOLLOW_UPS, MIDDLES, NOUNS, OPENERS, THANKS, VERBS, past } from './words.js';

export type ToolKind = 'read' | 'bash' | 'edit' | 'write' | 'grep' | 'glob' | 'todo' | 'task';

export interface ToolCall {
  kind: ToolKind;
  /** Absolute path (read/edit/write), command (bash), pattern (grep/glob), description (task, todo). */
  target: string;
  output: string;
  exitCode: number;
  isError: boolean;
  /** The user refused the call; the exchange stops there. */
  rejected: boolean;
  /** read: the raw file; edit: the file before the edit; write: the new file. */
  content: string;
  oldText: string;
  newText: string;
  at: number;
}

export interface Step {
  text: string;
  /** Empty when the step has no thinking block. */
  thinking: string;
  tools: ToolCall[];
  at: number;
}

export type ExchangeKind = 'task' | 'followup' | 'correction' | 'thanks';

export interface Exchange {
  prompt: string;
  kind: ExchangeKind;
  taskId: string | null;
  steps: Step[];
  /** Empty when the exchange was interrupted. */
  final: string;
  interrupted: boolean;
  start: number;
  end: number;
}

export interface PlannedSecret {
  secret: Secret;
  role: 'user' | 'assistant';
}

export interface SessionPlan {
  project: Project;
  cwd: string;
  pm: string;
  start: number;
  end: number;
  exchanges: Exchange[];
  taskIds: string[];
  secrets: PlannedSecret[];
}

export interface SessionOptions {
  start: number;
  /** Probability that an exchange carries a planted secret. */
  secretRate: number;
  minTurns?: number;
  maxTurns?: number;
  /** Force the working directory (its project is the one containing it). */
  cwd?: string;
  /** Cap on assistant tool steps per exchange (small sessions). */
  maxSteps?: number;
}

type Work = TaskFamily['work'];

interface Ctx {
  project: Project;
  cwd: string;
  slots: Slots;
  t: number;
}

export class Planner {
  private readonly rng: Rng;
  private readonly filler: Filler;
  private readonly projects: readonly Project[];

  constructor(rng: Rng, filler: Filler, projects: readonly Project[]) {
    this.rng = rng;
    this.filler = filler;
    this.projects = projects;
  }

  session(opts: SessionOptions): SessionPlan {
    const r = this.rng;
    const forced = opts.cwd;
    const owner = this.projects.find(
      (p) => forced !== undefined && (forced === p.root || forced.startsWith(`${p.root}/`)),
    );
    const project = owner ?? r.weighted(this.projects.map((p) => [p, p.weight] as const));
    const cwd = forced ?? (r.chance(0.1) ? `${project.root}/packages/${r.pick(NOUNS)}` : project.root);
    const ctx: Ctx = { project, cwd, slots: this.slots(project), t: opts.start + r.int(3, 60) * 1000 };
    const turns = r.skewed(opts.minTurns ?? 2, opts.maxTurns ?? 30, 2.3);
    const exchanges: Exchange[] = [];
    const secrets: PlannedSecret[] = [];
    const taskIds: string[] = [];
    let work: Work = 'edit';
    for (let i = 0; i < turns; i++) {
      let kind: ExchangeKind = 'task';
      if (i > 0) {
        kind =
          i === turns - 1 && r.chance(0.5)
            ? 'thanks'
            : r.weighted<ExchangeKind>([
                ['followup', 0.4],
                ['task', 0.25],
                ['correction', 0.2],
                ['thanks', 0.15],
              ]);
      }
      let family: TaskFamily | null = null;
      if (kind === 'task') {
        family = r.weighted(project.tasks);
        work = family.work;
        taskIds.push(family.id);
        const pm = ctx.slots.pm;
        ctx.slots = { ...this.slots(project), pm };
      }
      const ex = this.exchange(ctx, kind, family, work, opts.maxSteps ?? Number.POSITIVE_INFINITY);
      if (r.chance(opts.secretRate)) {
        const secret = makeSecret(r, r.pick(SECRET_KINDS));
        const role = ex.final !== '' && r.chance(0.35) ? 'assistant' : 'user';
        if (role === 'user')
          ex.prompt = r.chance(0.5)
            ? `${ex.prompt}\n\n${secret.userText}`
            : `${secret.userText}\n${ex.prompt}`;
        else ex.final = `${ex.final}\n\n${secret.assistantText}`;
        secrets.push({ secret, role });
      }
      exchanges.push(ex);
      ctx.t = ex.end + r.int(20, 900) * 1000;
    }
    const end = exchanges[exchanges.length - 1]?.end ?? opts.start;
    return { project, cwd, pm: ctx.slots.pm, start: opts.start, end, exchanges, taskIds, secrets };
  }

  private slots(project: Project): Slots {
    return makeSlots(this.rng, project, () => this.fnName(project), this.rng.pick(ERRORS));
  }

  private fnName(project: Project): string {
    return project.lang === 'py' ? this.filler.pyName() : this.filler.fnName();
  }

  private exchange(
    ctx: Ctx,
    kind: ExchangeKind,
    family: TaskFamily | null,
    work: Work,
    maxSteps: number,
  ): Exchange {
    const r = this.rng;
    const start = ctx.t;
    let prompt: string;
    if (kind === 'task' && family !== null) prompt = fill(r.pick(family.variants), ctx.slots);
    else if (kind === 'followup') prompt = fill(r.pick(FOLLOW_UPS), ctx.slots);
    else if (kind === 'correction') {
      const template = r.pick(CORRECTIONS);
      prompt = fill(template, ctx.slots);
      if (template.includes('{pm2}')) ctx.slots = { ...ctx.slots, pm: ctx.slots.pm2, pm2: ctx.slots.pm };
    } else prompt = r.pick(THANKS);
    if (kind !== 'thanks') prompt = this.vary(prompt);
    if (kind !== 'thanks' && r.chance(0.08)) {
      prompt += `\n\ngetting this:\n\`\`\`\n${this.filler.testRun(ctx.project.lang, ctx.project.testFiles, 1, r.int(200, 3000))}\n\`\`\``;
    }

    const steps: Step[] = [];
    let interrupted = false;
    ctx.t += r.int(2, 30) * 1000;
    const flow =
      kind === 'thanks' ? [] : this.flow(ctx, kind === 'correction' ? 'correction' : work).slice(0, maxSteps);
    const cut = r.chance(0.03) ? r.int(0, flow.length) : flow.length;
    for (let i = 0; i < flow.length; i++) {
      if (i >= cut) {
        interrupted = true;
        break;
      }
      const make = flow[i];
      if (make === undefined) continue;
      const at = ctx.t;
      const tools = make();
      const text =
        i === 0 ? fill(r.pick(OPENERS), ctx.slots) : r.chance(0.6) ? fill(r.pick(MIDDLES), ctx.slots) : '';
      const thinking = r.chance(0.3) ? this.prose(r.int(2, 12)) : '';
      steps.push({ text, thinking, tools, at });
      if (tools.some((tc) => tc.rejected)) {
        interrupted = true;
        break;
      }
    }
    ctx.t += r.int(2, 20) * 1000;
    const final = interrupted ? '' : this.finalText(ctx, kind, work);
    return { prompt, kind, taskId: family?.id ?? null, steps, final, interrupted, start, end: ctx.t };
  }

  /** Steps of tool calls typical for the kind of work; each entry makes one step's calls. */
  private flow(ctx: Ctx, work: Work | 'correction'): (() => ToolCall[])[] {
    const r = this.rng;
    const s = ctx.slots;
    const p = ctx.project;
    const f = this.filler;
    const test = (fail: boolean): ToolCall =>
      this.bash(ctx, `${s.pm === 'pip' || s.pm === 'uv' ? 'pytest -q' : `${s.pm} test`}`, fail ? 1 : 0, () =>
        f.testRun(p.lang, p.testFiles, fail ? r.int(1, 3) : 0, f.outputSize()),
      );
    const typecheck = (): ToolCall =>
      p.lang === 'py'
        ? this.bash(ctx, 'mypy app', 0, () => 'Success: no issues found in 48 source files')
        : this.bash(ctx, 'npx tsc --noEmit', 0, () => '');
    const steps: (() => ToolCall[])[] = [];
    if (work !== 'correction' && r.chance(0.1))
      steps.push(() => [this.tool(ctx, 'todo', 'plan', 'Todos have been modified successfully.')]);
    switch (work) {
      case 'install': {
        const manifest = p.lang === 'py' ? 'pyproject.toml' : 'package.json';
        const add =
          s.pm === 'pip'
            ? 'pip install'
            : s.pm === 'uv'
              ? 'uv add'
              : s.pm === 'npm'
                ? 'npm install'
                : `${s.pm} add`;
        steps.push(() => [this.read(ctx, manifest)]);
        steps.push(() => [this.bash(ctx, `${add} ${s.pkg}`, 0, () => f.install(s.pm, s.pkg))]);
        steps.push(() => [this.edit(ctx, s.file)]);
        steps.push(() => [test(false)]);
        break;
      }
      case 'git':
        steps.push(() => [
          this.bash(ctx, 'git status', 0, () => f.gitStatus(p.branch, p.files)),
          this.bash(ctx, 'git diff', 0, () => f.diff(p.lang, p.files, f.outputSize())),
        ]);
        steps.push(() => [this.bash(ctx, 'git log --oneline -20', 0, () => f.gitLog(20))]);
        if (r.chance(0.5)) {
          steps.push(() => [
            this.bash(
              ctx,
              `git commit -am "${r.pick(VERBS)} ${r.pick(NOUNS)}"`,
              0,
              () =>
                `[${p.branch} ${r.hex(7)}] ${r.pick(VERBS)} ${r.pick(NOUNS)}\n ${r.int(1, 9)} files changed, ${r.int(1, 300)} insertions(+), ${r.int(0, 90)} deletions(-)`,
            ),
          ]);
        }
        break;
      case 'tests':
        steps.push(() => [test(true)]);
        steps.push(() => [this.read(ctx, s.test), this.read(ctx, s.file)]);
        steps.push(() => [this.edit(ctx, s.file)]);
        steps.push(() => [test(false)]);
        break;
      case 'lint':
        steps.push(() => [
          this.bash(ctx, `${s.pm === 'pip' ? 'ruff check .' : `${s.pm} run lint`}`, 1, () =>
            f.lint(p.files, p.root, r.int(1, 40)),
          ),
        ]);
        steps.push(() => [this.edit(ctx, s.file), this.edit(ctx, s.file2)]);
        steps.push(() => [
          this.bash(ctx, `${s.pm === 'pip' ? 'ruff check .' : `${s.pm} run lint`}`, 0, () => ''),
        ]);
        break;
      case 'explain':
        steps.push(() => [this.tool(ctx, 'grep', s.fn, f.grep(p.lang, p.files, f.outputSize()))]);
        steps.push(() => [this.read(ctx, s.file)]);
        if (r.chance(0.3))
          steps.push(() => [
            this.tool(ctx, 'task', `Explore how ${s.fn} is used`, this.prose(r.int(10, 60))),
          ]);
        break;
      case 'correction':
        steps.push(() => [this.edit(ctx, s.file)]);
        if (r.chance(0.6)) steps.push(() => [test(r.chance(0.1))]);
        break;
      case 'edit':
        steps.push(() => [
          r.chance(0.5)
            ? this.tool(
                ctx,
                'glob',
                `${p.lang === 'py' ? 'app' : 'src'}/**/*.${p.lang}`,
                f.listing(p.root, p.files, f.outputSize()),
              )
            : this.tool(ctx, 'grep', s.fn, f.grep(p.lang, p.files, f.outputSize())),
        ]);
        steps.push(() => [this.read(ctx, s.file), ...(r.chance(0.5) ? [this.read(ctx, s.file2)] : [])]);
        steps.push(() => (r.chance(0.15) ? [this.write(ctx, s.file2)] : [this.edit(ctx, s.file)]));
        if (r.chance(0.3))
          steps.push(() => [
            this.bash(ctx, `${s.pm === 'pip' ? 'python -m build' : `${s.pm} run build`}`, 0, () =>
              f.buildLog(f.outputSize()),
            ),
          ]);
        steps.push(() => [typecheck()]);
        break;
    }
    return steps;
  }

  private tool(ctx: Ctx, kind: ToolKind, target: string, output: string): ToolCall {
    ctx.t += this.rng.int(500, 20000);
    return {
      kind,
      target,
      output,
      exitCode: 0,
      isError: false,
      rejected: false,
      content: '',
      oldText: '',
      newText: '',
      at: ctx.t,
    };
  }

  private bash(ctx: Ctx, command: string, exitCode: number, output: () => string): ToolCall {
    const code = exitCode === 0 && this.rng.chance(0.05) ? this.rng.pick([1, 2, 127]) : exitCode;
    const call = this.tool(ctx, 'bash', command, output());
    if (code === 127) call.output = `bash: ${command.split(' ')[0] ?? command}: command not found`;
    call.exitCode = code;
    call.isError = code !== 0;
    return call;
  }

  private read(ctx: Ctx, file: string): ToolCall {
    const content = this.filler.fileContent(ctx.project.lang, this.filler.outputSize());
    const call = this.tool(ctx, 'read', `${ctx.project.root}/${file}`, this.filler.numbered(content));
    call.content = content;
    return call;
  }

  private edit(ctx: Ctx, file: string): ToolCall {
    const lang = ctx.project.lang;
    const call = this.tool(ctx, 'edit', `${ctx.project.root}/${file}`, '');
    call.content = this.filler.fileContent(lang, this.filler.outputSize());
    call.oldText = this.filler.fileContent(lang, this.rng.int(80, 600));
    call.newText = this.filler.fileContent(lang, this.rng.int(80, 900));
    call.rejected = this.rng.chance(0.015);
    call.isError = call.rejected;
    call.output = call.rejected
      ? "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."
      : `The file ${call.target} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${this.filler.numbered(call.newText, this.rng.int(1, 200))}`;
    return call;
  }

  private write(ctx: Ctx, file: string): ToolCall {
    const call = this.tool(
      ctx,
      'write',
      `${ctx.project.root}/${file}`,
      `File created successfully at: ${ctx.project.root}/${file}`,
    );
    call.content = this.filler.fileContent(ctx.project.lang, this.filler.outputSize());
    return call;
  }

  private vary(prompt: string): string {
    const r = this.rng;
    let out = prompt;
    if (r.chance(0.15)) out = `${r.pick(['hey, ', 'pls ', 'ok ', 'quick one: '])}${out}`;
    else if (r.chance(0.3)) out = out.charAt(0).toUpperCase() + out.slice(1);
    if (r.chance(0.2) && !/[.?!]$/.test(out)) out += r.pick(['.', '?', '!', ' thx']);
    return out;
  }

  /** Plain reasoning-like prose of `n` sentences. */
  prose(n: number): string {
    const r = this.rng;
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      out.push(
        r.pick([
          `I need to ${r.pick(VERBS)} the ${r.pick(NOUNS)} before I ${r.pick(VERBS)} the ${r.pick(NOUNS)}.`,
          `The ${r.pick(NOUNS)} module calls ${this.filler.fnName()} on every ${r.pick(NOUNS)}, which explains the behaviour.`,
          `Looking at the ${r.pick(NOUNS)} handling, the ${r.pick(NOUNS)} is never ${past(r.pick(VERBS))} when the list is empty.`,
          `The simplest fix is to ${r.pick(VERBS)} the ${r.pick(NOUNS)} once and reuse it.`,
          `Tests cover the ${r.pick(NOUNS)} path but not the ${r.pick(NOUNS)} path.`,
        ]),
      );
    }
    return out.join(' ');
  }

  private finalText(ctx: Ctx, kind: ExchangeKind, work: Work): string {
    const r = this.rng;
    const s = ctx.slots;
    if (kind === 'thanks')
      return r.pick(['Glad it works!', 'Great! Let me know if you need anything else.', "You're welcome."]);
    const bullets: string[] = [];
    for (let i = r.int(1, 5); i > 0; i--) {
      bullets.push(
        `- \`${r.pick(ctx.project.files)}\`: ${r.pick(VERBS)} the ${r.pick(NOUNS)} ${r.pick(['handling', 'lookup', 'validation', 'types', 'tests'])}`,
      );
    }
    let head: string;
    if (kind === 'correction') head = `You're right. I changed it: ${this.prose(1)}`;
    else if (work === 'install')
      head = `Added \`${s.pkg}\` with ${s.pm} and used it in \`${s.file}\`. The tests pass.`;
    else if (work === 'git') {
      head = `Here's a commit message:\n\n\`\`\`\n${r.pick(['feat', 'fix', 'refactor', 'chore'])}(${s.noun}): ${r.pick(VERBS)} ${s.noun} ${r.pick(NOUNS)}\n\n${bullets.join('\n')}\n\`\`\``;
    } else if (work === 'tests')
      head = `The failure came from \`${s.fn}\` in \`${s.file}\`. ${this.prose(2)} All tests pass now.`;
    else if (work === 'lint') head = `Fixed the lint errors; \`${s.pm} run lint\` is clean.`;
    else if (work === 'explain')
      head = `\`${s.fn}\` lives in \`${s.file}\`. ${this.prose(r.int(3, 10))}\n\n${this.filler.snippet(ctx.project.lang)}`;
    else head = `Done. ${this.prose(r.int(1, 3))}`;
    const tail = r.chance(0.3) ? `\n\n${this.filler.snippet(ctx.project.lang)}` : '';
    return `${head}\n\nChanges:\n${bullets.join('\n')}${tail}`;
  }
}
