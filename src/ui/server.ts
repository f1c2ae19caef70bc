/**
 * The dashboard's server (`skillopt-sleep ui`): bound to 127.0.0.1 only, every request checked by
 * `security.ts`, pages rendered on the server from read-only loaders, and the three proposal buttons
 * running the CLI's own code (injected as `runAction`: the CLI wires it, and the lesson count).
 * A button's POST answers 303 to the proposal's page (a reload submits nothing), which shows once
 * what the action printed.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { serve, type ServerType } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { assertProposalId } from '../../proposals/index.js';
import type { Clock } from '../core/clock.js';
import { IoError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { dashboardVersion } from '../store/dashboard-repo.js';
import type { Db } from '../store/db.js';
import { uiAssets } from './assets.js';
import {
  HISTORY_FILE,
  knownProjects,
  loadHarvest,
  loadProjectNights,
  loadProjects,
  loadProposalView,
  loadTrainHistory,
} from './data.js';
import { parseFilter } from './filter.js';
import { FlashBox } from './flash.js';
import { html } from './html.js';
import { loadLiveFiles } from './live-skill.js';
import type { ProposalActionName } from './proposal-state.js';
import {
  bearerToken,
  cookieValue,
  newSecret,
  requestProblem,
  sameSecret,
  securityHeaders,
} from './security.js';
import { renderTrainPage } from './views/nights.js';
import { renderHarvestPage, renderProjectsPage } from './views/overview.js';
import { renderProjectPage, type LessonCount } from './views/project.js';
import { renderProposalPage, type ActionResult } from './views/proposal.js';
import { page, query } from './views/layout.js';

export type { ProposalActionName } from './proposal-state.js';

/** Runs adopt/reject/revert as the CLI does; resolves to what the CLI prints (or its error line). */
export type RunProposalAction = (
  action: ProposalActionName,
  project: string,
  id: string,
  extra: { reason?: string; rules?: number[] },
) => Promise<ActionResult>;

/** The checked rule boxes as numbers; anything but a small positive integer is refused. */
function ruleNumbers(value: unknown): number[] {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return values.map((v) => {
    if (typeof v !== 'string' || !/^[1-9][0-9]{0,5}$/.test(v)) throw new Refusal(400, 'a rule is a number');
    return Number(v);
  });
}

export interface UiOptions {
  /** Whose schedule registry lists projects besides the store's nights (the demo's folder has none). */
  home: string;
  userHome: string;
  db: Db;
  clock: Clock;
  logger: Logger;
  runAction: RunProposalAction;
  /** A project's lessons as `lessons list` counts them (the CLI wires it); absent: not shown. */
  countLessons?: (project: string) => LessonCount | Promise<LessonCount>;
  /** 0 (the default): a free port. */
  port?: number;
  /** `train` output folders the user named (`--train-dir`), each holding a history.jsonl. */
  trainDirs?: string[];
}

export interface RunningUi {
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

class Refusal extends Error {
  readonly status: 400 | 403 | 404;
  constructor(status: 400 | 403 | 404, message: string) {
    super(message);
    this.status = status;
  }
}

export async function startUi(o: UiOptions): Promise<RunningUi> {
  const token = newSecret();
  const csrf = newSecret();
  const trainDirs = (o.trainDirs ?? []).map((d) => path.resolve(d));
  let port = 0;
  const cookieName = (): string => `skillopt_ui_${port}`;
  const app = new Hono<{ Variables: { nonce: string } }>();

  app.use('*', async (c, next) => {
    const nonce = newSecret().slice(0, 32);
    c.set('nonce', nonce);
    const problem = requestProblem({ host: c.req.header('host'), origin: c.req.header('origin') }, port);
    if (problem) return refuse(c.get('nonce'), problem.status, problem.reason);
    const fromQuery = c.req.query('token');
    if (fromQuery !== undefined) {
      if (!sameSecret(fromQuery, token)) return refuse(c.get('nonce'), 403, 'wrong token');
      if (c.req.method === 'GET') {
        // The token leaves the address (history, screenshots) for a cookie only this server reads.
        const url = new URL(c.req.url);
        url.searchParams.delete('token');
        c.header('Set-Cookie', `${cookieName()}=${token}; HttpOnly; SameSite=Strict; Path=/`);
        for (const [k, v] of Object.entries(securityHeaders(nonce))) c.header(k, v);
        return c.redirect(`${url.pathname}${url.search}`, 303);
      }
    } else {
      const given =
        bearerToken(c.req.header('authorization')) ?? cookieValue(c.req.header('cookie'), cookieName());
      if (given === undefined)
        return refuse(c.get('nonce'), 401, 'the token is missing: open the address `ui` printed');
      if (!sameSecret(given, token)) return refuse(c.get('nonce'), 403, 'wrong token');
    }
    await next();
    for (const [k, v] of Object.entries(securityHeaders(nonce))) c.header(k, v);
  });

  const flashes = new FlashBox<ActionResult>();
  // What the pages show, and the train histories: the page script polls it to know when to refresh.
  const version = (): string => {
    const histories = trainDirs.map((d) => {
      try {
        const st = statSync(path.join(d, HISTORY_FILE));
        return `${st.size}:${st.mtimeMs}`;
      } catch {
        return '';
      }
    });
    return `${dashboardVersion(o.db)}.${histories.join(',')}`;
  };
  const opts = (c: Context<{ Variables: { nonce: string } }>) => ({
    nonce: c.get('nonce'),
    csrf,
    now: o.clock.now(),
    version: version(),
  });
  const lessonCount = async (dir: string): Promise<LessonCount | null> => {
    if (!o.countLessons) return null;
    try {
      return await o.countLessons(dir);
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  };
  const project = (dir: string | undefined): string => {
    if (dir === undefined || !knownProjects(o.db, o.home).includes(dir))
      throw new Refusal(404, 'not a project the store or the schedule registry knows');
    return dir;
  };
  const proposalId = (id: string | undefined): string => {
    try {
      assertProposalId(id ?? '');
    } catch {
      throw new Refusal(400, 'not a proposal id');
    }
    return id ?? '';
  };

  // Each page takes its options (the version) before it reads: a change while it reads shows on the next poll.
  app.get('/', async (c) => {
    const ro = opts(c);
    return c.html(renderProjectsPage(await loadProjects(o.db, o.home, ro.now), ro, trainDirs));
  });
  app.get('/project', async (c) => {
    const dir = project(c.req.query('dir'));
    const filter = parseFilter(c.req.query('q'), c.req.query('status'));
    const ro = opts(c);
    const nights = await loadProjectNights(o.db, dir);
    const live = await loadLiveFiles(dir, nights.proposals, o.db);
    return c.html(renderProjectPage({ nights, live, lessons: await lessonCount(dir) }, ro, filter));
  });
  app.get('/proposal', async (c) => {
    const ro = opts(c);
    const view = await loadProposalView(project(c.req.query('dir')), proposalId(c.req.query('id')), o.db);
    const result = flashes.take(c.req.query('flash'));
    return c.html(renderProposalPage(view, result ? { ...ro, result } : ro));
  });
  app.get('/api/state', (c) => c.json({ version: version() }));
  app.get('/harvest', (c) => {
    const ro = opts(c);
    return c.html(renderHarvestPage(loadHarvest(o.db), ro));
  });
  app.get('/train', async (c) => {
    const dir = c.req.query('dir');
    // Only folders the user named when starting the server, and only while they hold a history.
    if (dir === undefined || !trainDirs.includes(dir) || !existsSync(path.join(dir, HISTORY_FILE)))
      throw new Refusal(404, 'not a training folder given with --train-dir');
    const ro = opts(c);
    return c.html(renderTrainPage(await loadTrainHistory(dir), ro));
  });
  app.get('/assets/:name', (c) => {
    const asset = uiAssets()[c.req.param('name')];
    if (!asset) throw new Refusal(404, 'no such asset');
    return c.body(asset.text, 200, { 'Content-Type': asset.type });
  });
  app.post('/action', async (c) => {
    // `all`: the rule boxes repeat one name; every other field is sent once.
    const form = await c.req.parseBody({ all: true });
    const field = (k: string): string | undefined => (typeof form[k] === 'string' ? form[k] : undefined);
    if (!sameSecret(field('csrf') ?? c.req.header('x-csrf-token'), csrf))
      throw new Refusal(403, 'the form is not from this server (CSRF token missing or wrong)');
    const action = field('action');
    if (action !== 'adopt' && action !== 'reject' && action !== 'revert')
      throw new Refusal(400, 'unknown action');
    const dir = project(field('dir'));
    const id = proposalId(field('id'));
    const reason = field('reason')?.trim();
    const rules = ruleNumbers(form['rule']);
    // Every action the status does not allow is refused by the CLI's own code, with its message.
    const result = await o.runAction(action, dir, id, {
      ...(reason ? { reason } : {}),
      ...(action === 'reject' && rules.length > 0 ? { rules } : {}),
    });
    return c.redirect(`/proposal?${query({ dir, id, flash: flashes.put(result) })}`, 303);
  });
  app.notFound((c) => refuse(c.get('nonce'), 404, 'no such page'));
  app.onError((err, c) => {
    if (err instanceof Refusal) return refuse(c.get('nonce'), err.status, err.message);
    const message = err instanceof Error ? err.message : String(err);
    o.logger.warn(`ui: ${c.req.method} ${c.req.path}: ${message}`);
    return refuse(c.get('nonce'), 500, message);
  });

  const server = await listen(app.fetch, o.port ?? 0);
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${HOST}:${port}/?token=${token}`,
    token,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function refuse(nonce: string | undefined, status: 400 | 401 | 403 | 404 | 500, reason: string): Response {
  const n = nonce ?? newSecret().slice(0, 32);
  const body = page(`${status}`, html`<p id="error">${reason}</p>`, { nonce: n, static: true });
  return new Response(body, {
    status,
    headers: { ...securityHeaders(n), 'Content-Type': 'text/html; charset=UTF-8' },
  });
}

function listen(fetch: (req: Request) => Response | Promise<Response>, port: number): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: HOST, port }, () => resolve(server));
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new IoError(`cannot listen on ${HOST}:${port}: ${err.code ?? err.message}`, 'ui_listen_failed')),
    );
  });
}
