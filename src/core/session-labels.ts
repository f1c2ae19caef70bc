/** What the model said a session was about, kept once per session and text hash (the model pass of the miner reads and writes it through this interface; the store implements it). */
export interface SessionLabel {
  sessionKey: string;
  textHash: string;
  label: string;
}

/** What a labelling pass reads and writes; the night uses the store, tests may use memory. */
export interface SessionLabelStore {
  get(sessionKey: string, textHash: string): string | undefined;
  put(labels: readonly SessionLabel[]): void;
}
