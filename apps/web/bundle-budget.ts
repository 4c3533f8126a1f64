/**
 * The JavaScript budgets of the web app, checked after every build (`check-bundle-budget.ts`):
 * what the browser downloads before a route's first screen shows, gzip, read from Vite's manifest.
 * A route loads the entry chunk, the component chunks of the route and of the layout routes around
 * it (TanStack's file-based routing splits each one), and every chunk those import statically;
 * chunks imported dynamically (pieces loaded on demand, other routes) are not counted.
 */

/** One chunk of `dist/.vite/manifest.json`, keyed there by its source (or `_name.js` for shared chunks). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface Budget {
  name: string;
  /** The route's file under src/routes, or null for what every route loads (the entry). */
  routeFile: string | null;
  limitKb: number;
}

export const budgets: Budget[] = [
  // Every screen's first download: a heavy import into app/ or shared/ shows here.
  { name: 'every route (entry)', routeFile: null, limitKb: 350 },
  // Issue #31's target for the email editor.
  {
    name: 'email editor',
    routeFile: 'src/routes/_app/workspaces/$workspaceId/emails/$emailId/edit.tsx',
    limitKb: 450,
  },
];

/** The route file and the layout routes it is nested in: `a/b/c.tsx` is inside `a.tsx` and `a/b.tsx`. */
export function routeAndLayoutFiles(routeFile: string): string[] {
  const folders = routeFile
    .replace(/^src\/routes\//, '')
    .split('/')
    .slice(0, -1);
  const files: string[] = [];
  let folder = 'src/routes';
  for (const part of folders) {
    folder = `${folder}/${part}`;
    files.push(`${folder}.tsx`);
  }
  files.push(routeFile);
  return files;
}

/** Whether the manifest key is the component chunk TanStack's router split out of `file`. */
function isComponentChunkOf(key: string, file: string): boolean {
  const [source, query] = key.split('?');
  if (source !== file || query === undefined) return false;
  const split = new URLSearchParams(query).get('tsr-split');
  return split?.split('---').includes('component') ?? false;
}

/** The files (under dist) the browser loads before the route's first screen, entry first. */
export function routeJavaScript(manifest: Manifest, routeFile: string | null): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  if (entries.length === 0) throw new Error('the manifest has no entry chunk');
  for (const entry of entries) visit(entry);
  if (routeFile !== null) {
    const routeKey = Object.keys(manifest).find((key) => isComponentChunkOf(key, routeFile));
    if (!routeKey)
      throw new Error(`no component chunk of ${routeFile} in the manifest: was the route renamed?`);
    for (const file of routeAndLayoutFiles(routeFile)) {
      for (const key of Object.keys(manifest)) if (isComponentChunkOf(key, file)) visit(key);
    }
  }
  return [...files];
}

export interface ChunkSize {
  file: string;
  raw: number;
  gzip: number;
}

export interface BudgetResult {
  budget: Budget;
  /** Biggest (gzip) first. */
  chunks: ChunkSize[];
  raw: number;
  gzip: number;
  withinBudget: boolean;
}

export function measureBudget(
  budget: Budget,
  manifest: Manifest,
  sizeOf: (file: string) => { raw: number; gzip: number },
): BudgetResult {
  const chunks = routeJavaScript(manifest, budget.routeFile)
    .map((file) => ({ file, ...sizeOf(file) }))
    .sort((a, b) => b.gzip - a.gzip);
  const raw = chunks.reduce((sum, chunk) => sum + chunk.raw, 0);
  const gzip = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);
  return { budget, chunks, raw, gzip, withinBudget: gzip <= budget.limitKb * 1024 };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** One line per budget, and over the budget the biggest chunks, which are where to look. */
export function describeResult(result: BudgetResult, biggest = 5): string {
  const { budget, chunks, raw, gzip, withinBudget } = result;
  const line =
    `${budget.name}: ${chunks.length} chunks, ${kb(raw)}, ${kb(gzip)} gzip ` +
    `(budget ${budget.limitKb} KB gzip${withinBudget ? '' : ': OVER'})`;
  if (withinBudget) return line;
  const top = chunks
    .slice(0, biggest)
    .map((chunk) => `  ${chunk.file}: ${kb(chunk.raw)}, ${kb(chunk.gzip)} gzip`);
  return [
    line,
    `Biggest chunks:`,
    ...top,
    'Load what the first screen does not show on demand (shared/on-demand.tsx) or from another route.',
  ].join('\n');
}
