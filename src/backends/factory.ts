/** Builds the backend a config names. New backends register here. */
import type { BackendName } from '../config/schema.js';
import { MockBackend } from './mock/mock-backend.js';
import type { Backend } from './types.js';

const factories = {
  mock: () => new MockBackend(),
} satisfies Record<BackendName, () => Backend>;

export function createBackend(name: BackendName): Backend {
  return factories[name]();
}
