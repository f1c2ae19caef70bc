/**
 * ALFWorld (Shridhar et al. 2021): text-based household tasks in TextWorld. The simulator is the user's
 * own `alfworld` Python package, run as a small server on the loopback interface (`protocol.ts`); this
 * environment drives episodes against it (`episode.ts`). Items are games: with `split_dir`, the
 * reference's `alfworld_path_split` manifest (`{id, gamefile, task_type}`, gamefiles relative to
 * ALFWORLD_DATA); without one, the `game.tw-pddl` files found under `data_dir`, split by ratio.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { InputError, errorMessage } from '../../../core/errors.js';
import type { Split } from '../../../core/task.js';
import { listDataFiles } from '../shared/data-files.js';
import { digestOf, envDataset, payloadOf, type EnvRow } from '../shared/env-item.js';
import { parseEnvOptions } from '../shared/options.js';
import { SPLITS, assignSplits } from '../shared/splits.js';
import type { EnvInstance, EnvSetup, Environment } from '../types.js';
import { runEpisode } from './episode.js';
import { AlfworldClient, serverUrl } from './protocol.js';
import { INITIAL_SKILL } from './prompt.js';

const optionsSchema = z
  .object({
    server_url: z.string().default('http://127.0.0.1:3917'),
    max_steps: z.number().int().min(1).max(500).default(50),
    history_length: z.number().int().min(0).max(50).default(2),
    max_observation_chars: z.number().int().min(200).default(2000),
    request_timeout_seconds: z.number().min(1).max(3600).default(120),
    max_tokens: z.number().int().min(32).default(1024),
  })
  .strict();

interface Payload {
  gamefile: string;
}

/** The six ALFWorld task types, as they start a game folder's name. */
const TASK_TYPES = [
  'pick_and_place_simple',
  'pick_two_obj_and_place',
  'look_at_obj_in_light',
  'pick_heat_then_place_in_recep',
  'pick_cool_then_place_in_recep',
  'pick_clean_then_place_in_recep',
];

const taskTypeOf = (gamefile: string): string =>
  TASK_TYPES.find((t) => gamefile.split('/').some((part) => part.startsWith(t))) ?? 'other';

/** What reflection reads as the task: the game's folder name (task type, object, receptacle, scene). */
function intentOf(gamefile: string): string {
  const parts = gamefile.split('/');
  const game = parts.find((p) => TASK_TYPES.some((t) => p.startsWith(t))) ?? parts.at(-2) ?? gamefile;
  return `ALFWorld game ${game}`;
}

const row = (id: string, gamefile: string): EnvRow<Payload> => ({
  id,
  intent: intentOf(gamefile),
  answers: [],
  tags: [`type:${taskTypeOf(gamefile)}`],
  payload: { gamefile },
});

function checkGamefile(gamefile: string, where: string): void {
  if (gamefile === '' || path.isAbsolute(gamefile) || gamefile.split(/[\\/]/).includes('..'))
    throw new InputError(
      `${where}: "gamefile" must be a path under ALFWORLD_DATA (got ${JSON.stringify(gamefile)})`,
    );
}

/** The manifest's items with their split, as listed (each split folder's first .json file). */
function manifestRows(setup: EnvSetup): Record<Split, Array<EnvRow<Payload>>> {
  const out: Record<Split, Array<EnvRow<Payload>>> = { train: [], val: [], test: [] };
  for (const split of SPLITS) {
    const folder = path.join(setup.splitDir, split);
    let list: unknown;
    let file = '';
    try {
      const name = readdirSync(folder)
        .filter((n) => n.endsWith('.json'))
        .sort()[0];
      if (name === undefined) throw new Error('no .json file');
      file = path.join(folder, name);
      list = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new InputError(`split_dir ${setup.splitDir}: cannot read ${split}/: ${errorMessage(err)}`);
    }
    if (!Array.isArray(list)) throw new InputError(`${file}: expected a JSON list of {"id", "gamefile"}`);
    list.forEach((entry, i) => {
      const e = (entry ?? {}) as { id?: unknown; gamefile?: unknown };
      const where = `${file}: item ${i + 1}`;
      if (typeof e.id !== 'string' || typeof e.gamefile !== 'string')
        throw new InputError(`${where}: an ALFWorld manifest item needs "id" and "gamefile"`);
      checkGamefile(e.gamefile, where);
      if (setup.dataDir !== '' && !existsSync(path.join(setup.dataDir, e.gamefile)))
        throw new InputError(`${where}: ${e.gamefile} is not under data_dir ${setup.dataDir}`);
      out[split].push(row(e.id, e.gamefile));
    });
  }
  const cut = <T>(l: T[]): T[] => (setup.limit > 0 ? l.slice(0, setup.limit) : l);
  return { train: cut(out.train), val: cut(out.val), test: cut(out.test) };
}

function open(setup: EnvSetup): EnvInstance {
  const options = parseEnvOptions('alfworld', optionsSchema, setup.options);
  const client = new AlfworldClient(serverUrl(options.server_url), options.request_timeout_seconds * 1000);
  const payloads = new Map<string, Payload>();
  return {
    maxTokens: options.max_tokens,
    needsImages: false,
    rolloutKey: `alfworld:${options.max_steps}:${options.history_length}:${options.max_observation_chars}`,
    load() {
      let splits: Record<Split, Array<EnvRow<Payload>>>;
      if (setup.splitDir !== '') splits = manifestRows(setup);
      else {
        if (setup.dataDir === '')
          throw new InputError(
            'the alfworld environment needs split_dir (a manifest) or data_dir (ALFWORLD_DATA)',
          );
        const games = listDataFiles(setup.dataDir, (n) => n.endsWith('.tw-pddl')).map((f) =>
          path.relative(setup.dataDir, f).split(path.sep).join('/'),
        );
        if (games.length === 0) throw new InputError(`data_dir ${setup.dataDir}: no game.tw-pddl file found`);
        splits = assignSplits(
          games.map((g) => row(g, g)),
          (r) => r.id,
          setup,
          setup.dataDir,
        );
      }
      const { data, payloads: loaded } = envDataset(setup.splitDir || setup.dataDir, splits);
      for (const [id, p] of loaded) payloads.set(id, p);
      // The games (not the server's address or timeouts) are the data a resumed run must share.
      const games = data.items.map((it) => payloadOf(payloads, it).gamefile);
      return Promise.resolve({ data, digest: digestOf(data, { games, max_steps: options.max_steps }) });
    },
    episode: (item, skill, target) =>
      runEpisode(client, payloadOf(payloads, item).gamefile, skill, target, {
        maxSteps: options.max_steps,
        historyLength: options.history_length,
        maxObservationChars: options.max_observation_chars,
      }),
  };
}

export const alfworld: Environment = {
  name: 'alfworld',
  summary:
    'ALFWorld: act in a text household simulator (your ALFWorld server on 127.0.0.1) until the goal is won',
  dataHint:
    "split_dir: the reference's data/alfworld_path_split (gamefiles under ALFWORLD_DATA); data_dir: ALFWORLD_DATA (optional with split_dir); env_options.server_url: your server (docs/training.md)",
  dataDirOptional: true,
  initialSkill: INITIAL_SKILL,
  optionsSchema,
  open,
};
