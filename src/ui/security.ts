/**
 * What every request must pass (a local server is reachable by any page the browser opens): the token
 * (Jupyter's rule), our own Host (DNS rebinding) and Origin, and on POSTs the CSRF token.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const newSecret = (): string => randomBytes(32).toString('hex');

export function sameSecret(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The hosts a browser names us by: only loopback, with our port. */
export const allowedHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];
export const allowedOrigins = (port: number): string[] => allowedHosts(port).map((h) => `http://${h}`);

/** Why a request is refused (status and a short reason), or null when it may go on. */
export function requestProblem(
  req: { host: string | undefined; origin: string | undefined },
  port: number,
): { status: 403; reason: string } | null {
  if (req.host === undefined || !allowedHosts(port).includes(req.host.toLowerCase()))
    return { status: 403, reason: 'foreign Host header' };
  if (req.origin !== undefined && !allowedOrigins(port).includes(req.origin))
    return { status: 403, reason: 'foreign Origin header' };
  return null;
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m?.[1];
}

/** The headers of every response: nothing but ourselves, inline code only with this response's nonce. */
export function securityHeaders(nonce: string): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      `style-src 'self' 'nonce-${nonce}'`,
      "img-src 'self' data:",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "object-src 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    // Not no-referrer: under it a browser sends `Origin: null` with the page's own form posts, which the
    // Origin check must refuse. same-origin still sends nothing to any other site.
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
  };
}
