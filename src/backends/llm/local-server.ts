/**
 * A model server on this machine (Ollama, vLLM, llama.cpp behind `base_url`) is not billed per token:
 * when its model has no price, it is free instead of blocking the default `max_cost_usd`. Only true
 * loopback hosts count (127.0.0.0/8, ::1, localhost); any other host may be a paid service. A known
 * price (the table or the config key `prices`) still counts: a local proxy may forward to a paid API.
 */
import type { Config } from '../../config/schema.js';
import type { ChatRole } from './chat.js';
import { priceFor, type Price } from './prices.js';
import { roleSetup, type RoleSetup } from './providers/index.js';

export const FREE_PRICE: Price = { input_per_mtok: 0, output_per_mtok: 0 };

/** The backends that send HTTP requests to `base_url` (the agent CLIs bill their own way). */
const HTTP_BACKENDS: ReadonlySet<string> = new Set(['openai', 'azure-openai', 'anthropic']);

export function isLoopbackUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  // The URL parser has already normalised IPv4 forms (127.1, 0x7f.0.0.1) to dotted decimal.
  if (host === 'localhost' || host === '[::1]') return true;
  const octets = host.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o));
}

/** True when the role's requests go to a server on this machine and its model has no known price. */
export function isFreeLocal(setup: RoleSetup, config: Config): boolean {
  return (
    HTTP_BACKENDS.has(setup.backend) &&
    isLoopbackUrl(setup.baseUrl) &&
    priceFor(setup.model, config.prices) === null
  );
}

/** The roles a night runs free on a local server (named in the spend plan). */
export function freeLocalRoles(config: Config): ChatRole[] {
  return (['target', 'optimizer'] as const).filter((role) => isFreeLocal(roleSetup(config, role), config));
}
