/**
 * Run after `vite build` (the package's build script, so CI's build and `npm start` check it):
 * prints the JavaScript each budgeted route downloads before its first screen, and fails when one
 * is over its budget (bundle-budget.ts), naming the biggest chunks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { budgets, describeResult, type Manifest, measureBudget } from './bundle-budget.ts';

const dist = path.join(import.meta.dirname, 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
const sizeOf = (file: string) => {
  const code = readFileSync(path.join(dist, file));
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
};

let over = false;
for (const budget of budgets) {
  const result = measureBudget(budget, manifest, sizeOf);
  console.log(describeResult(result));
  if (!result.withinBudget) over = true;
}
if (over) process.exit(1);
