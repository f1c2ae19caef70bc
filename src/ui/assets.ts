/** The chart library's files, served by the dashboard itself (never a CDN) or inlined in a static page. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const resolve = (file: string): string => createRequire(import.meta.url).resolve(`uplot/dist/${file}`);

export interface Asset {
  type: string;
  text: string;
}

let cache: Record<string, Asset> | null = null;

/** URL path under /assets/ → file, read once. */
export function uiAssets(): Record<string, Asset> {
  cache ??= {
    'uPlot.iife.min.js': {
      type: 'text/javascript; charset=utf-8',
      text: readFileSync(resolve('uPlot.iife.min.js'), 'utf8'),
    },
    // The browser asks for an icon on every page: our own, so it never meets a 404 (or another host).
    'favicon.svg': {
      type: 'image/svg+xml',
      text: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#3b5bdb"/><path d="M5 9a3 3 0 0 0 6 0" stroke="#fff" fill="none"/></svg>',
    },
    'uPlot.min.css': {
      type: 'text/css; charset=utf-8',
      text: readFileSync(resolve('uPlot.min.css'), 'utf8'),
    },
  };
  return cache;
}
