/** Turns an SDK error (OpenAI or Anthropic, same shape) into a classified `ProviderFailure`. */
import { kindOfStatus, ProviderFailure, retryAfterMs } from '../chat.js';

interface SdkErrorShape {
  status?: unknown;
  headers?: unknown;
  message?: unknown;
}

function headerReader(headers: unknown): (name: string) => string | null | undefined {
  if (headers && typeof (headers as Headers).get === 'function') return (n) => (headers as Headers).get(n);
  if (headers && typeof headers === 'object') {
    const record = headers as Record<string, unknown>;
    return (n) => (typeof record[n] === 'string' ? record[n] : undefined);
  }
  return () => undefined;
}

/** `where` names the endpoint (never the key) so a failure says what was called. */
export function classifySdkError(
  err: unknown,
  provider: string,
  where: string,
  keyVariable: string,
): ProviderFailure {
  if (err instanceof ProviderFailure) return err;
  const e = (err ?? {}) as SdkErrorShape;
  const status = typeof e.status === 'number' ? e.status : undefined;
  const kind = kindOfStatus(status);
  const detail = typeof e.message === 'string' ? e.message : String(err);
  const message =
    kind === 'auth'
      ? `${provider} rejected the credentials (HTTP ${status}) at ${where}: check the key in ${keyVariable}`
      : status === undefined
        ? `${provider} request to ${where} failed: ${detail}`
        : `${provider} request to ${where} failed with HTTP ${status}: ${detail}`;
  return new ProviderFailure(message, kind, status, retryAfterMs(headerReader(e.headers)));
}
