/**
 * The layer rules of ARCHITECTURE.md ("May depend on"), checked by `npm run lint`.
 * Paths are from the repository root; test files are left out (a test may reach any layer).
 */
const SOURCE = '^(src|harvesters|proposals)/';
/** A layer may import only its own folder and the listed ones (npm packages and node: builtins always). */
const layer = (name, from, allowed, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: SOURCE, pathNot: [from, ...allowed] },
});
const CORE = '^src/core/';
const CONFIG = '^src/config/';
const BACKEND_TYPES = '^src/backends/types\\.ts$';

module.exports = {
  forbidden: [
    layer('core', CORE, [], 'src/core depends on nothing of ours'),
    layer('config', CONFIG, [CORE], 'config: core only'),
    layer('harvesters', '^harvesters/', [CORE], 'a harvester only normalises: core only, never the store'),
    layer('store', '^src/store/', [CORE], 'the store: core only'),
    layer('harvest', '^src/harvest/', [CORE, CONFIG, '^harvesters/', '^src/store/'], 'the harvest stage'),
    layer(
      'miner',
      '^src/miner/',
      [CORE, '^src/replay/judges/', BACKEND_TYPES],
      'mining: core, replay judges, the Backend interface',
    ),
    layer(
      'replay',
      '^src/replay/',
      [CORE, BACKEND_TYPES, '^src/config/schema\\.ts$'],
      'replay: core, the Backend interface, config types',
    ),
    layer(
      'backends',
      '^src/backends/',
      [CORE, CONFIG, '^src/replay/judges/', '^src/store/(db|response-cache-repo|batches-repo)\\.ts$'],
      "backends: core, config, replay judges, the store's response cache and batch requests",
    ),
    layer(
      'trainer',
      '^src/trainer/(?!batch/|envs/)',
      [CORE, '^src/replay/', BACKEND_TYPES],
      'the trainer core: what nights and train share',
    ),
    layer(
      'trainer-batch',
      '^src/trainer/batch/',
      [CORE, CONFIG, '^src/replay/', '^src/trainer/', BACKEND_TYPES],
      'the batch trainer',
    ),
    layer(
      'trainer-envs',
      '^src/trainer/envs/',
      [
        CORE,
        '^src/replay/judges/',
        BACKEND_TYPES,
        '^src/trainer/batch/dataset\\.ts$',
        '^src/config/paths\\.ts$',
      ],
      'benchmark environments: core, replay judges, the Backend interface, the dataset item, the temp folder (config/paths)',
    ),
    layer(
      'lift',
      '^src/lift/',
      [CORE, '^src/config/choices\\.ts$', '^src/replay/', BACKEND_TYPES],
      'the paired comparison of a live skill and a candidate: statistics, replays, words',
    ),
    layer('proposals', '^proposals/', [CORE], 'proposal folders: core only'),
    layer(
      'skill-package',
      '^src/skill-package/',
      [CORE],
      "a user's own skill package, edited whole: core only",
    ),
    layer('scheduler', '^src/scheduler/', [CORE, CONFIG], 'cron and the registry'),
    layer('install', '^src/install/', [CORE, CONFIG], 'agent integrations'),
    layer(
      'daemon',
      '^src/daemon/',
      [CORE, CONFIG, '^src/harvest/', '^harvesters/', '^src/scheduler/', '^src/store/'],
      'the daemon runs nights as child processes, never in-process',
    ),
    layer(
      'night',
      '^src/night/',
      ['^(src/(?!cli/|daemon/|install/|tools/)|harvesters/|proposals/)'],
      'a night: every stage, never the CLI, daemon or installers',
    ),
    layer(
      'ui',
      '^src/ui/',
      [
        CORE,
        CONFIG,
        '^src/store/',
        '^proposals/',
        '^src/scheduler/',
        '^src/night/night-report\\.ts$',
        '^src/lift/lift-text\\.ts$',
      ],
      "the dashboard: read-only loaders and views; its buttons are the CLI's, injected",
    ),
    layer(
      'cli',
      '^src/cli/',
      ['^(src/(?!tools/)|harvesters/|proposals/)'],
      'the CLI: anything but dev tools',
    ),
    {
      name: 'sqlite-in-store',
      comment:
        "Only the store opens SQLite (and the harvesters that read an agent's own database, read-only: Copilot CLI's store, and OpenCode's and Goose's through shared/sqlite-store.ts).",
      severity: 'error',
      from: {
        path: SOURCE,
        pathNot: [
          '^src/store/',
          '^harvesters/copilot-cli/store\\.ts$',
          '^harvesters/shared/sqlite-store\\.ts$',
        ],
      },
      to: { path: 'node_modules/better-sqlite3/' },
    },
    {
      name: 'no-cycles',
      comment: 'Modules form no import cycle (a cycle between layers hides which one depends on which).',
      severity: 'error',
      from: { path: SOURCE },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$|(^|/)test-helpers\\.ts$|\\.bench\\.ts$' },
    moduleSystems: ['es6'],
  },
};
