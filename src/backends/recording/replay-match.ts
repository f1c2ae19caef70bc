/** How a replayed night matches requests to recorded replies (apart, so `--help` need not load the replayer). */
export const REPLAY_MATCHES = ['hash', 'order'] as const;
export type ReplayMatch = (typeof REPLAY_MATCHES)[number];
