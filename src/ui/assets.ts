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
    'uPlot.min.css': {
      type: 'text/css; charset=utf-8',
      text: readFileSync(resolve('uPlot.min.css'), 'utf8'),
    },
  };
  return cache;
}
