import { describe, expect, it } from 'vitest';
import {
  type Budget,
  describeResult,
  type Manifest,
  measureBudget,
  routeAndLayoutFiles,
  routeJavaScript,
} from './bundle-budget.ts';

const editRoute = 'src/routes/_app/emails/$emailId/edit.tsx';

/** A small app: an entry, a layout route, the edit route (with a dialog on demand) and another route. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_react.js'],
    dynamicImports: [
      'src/routes/_app.tsx?tsr-split=component',
      `${editRoute}?tsr-split=component`,
      `${editRoute}?tsr-split=errorComponent`,
      'src/routes/_app/settings.tsx?tsr-split=component',
    ],
  },
  '_react.js': { file: 'assets/react.js' },
  '_mantine.js': { file: 'assets/mantine.js', imports: ['_react.js'] },
  'src/routes/_app.tsx?tsr-split=component': { file: 'assets/_app.js', imports: ['_mantine.js'] },
  [`${editRoute}?tsr-split=component`]: {
    file: 'assets/edit.js',
    imports: ['_editor.js', 'index.html'],
    dynamicImports: ['src/features/ExportDialog.tsx'],
  },
  [`${editRoute}?tsr-split=errorComponent`]: { file: 'assets/edit-error.js' },
  '_editor.js': { file: 'assets/editor.js', imports: ['_mantine.js'] },
  'src/features/ExportDialog.tsx': { file: 'assets/ExportDialog.js', imports: ['_juice.js'] },
  '_juice.js': { file: 'assets/juice.js' },
  'src/routes/_app/settings.tsx?tsr-split=component': { file: 'assets/settings.js' },
};

const sizes: Record<string, number> = {
  'assets/index.js': 20,
  'assets/react.js': 60,
  'assets/mantine.js': 50,
  'assets/_app.js': 5,
  'assets/edit.js': 10,
  'assets/editor.js': 100,
};
/** Gzip a quarter of the raw size, in KB. */
const sizeOf = (file: string) => ({ raw: (sizes[file] ?? 0) * 4096, gzip: (sizes[file] ?? 0) * 1024 });

describe('routeAndLayoutFiles', () => {
  it('lists the layout route of every folder above the route, outermost first', () => {
    expect(routeAndLayoutFiles(editRoute)).toEqual([
      'src/routes/_app.tsx',
      'src/routes/_app/emails.tsx',
      'src/routes/_app/emails/$emailId.tsx',
      editRoute,
    ]);
    expect(routeAndLayoutFiles('src/routes/sign-in.tsx')).toEqual(['src/routes/sign-in.tsx']);
  });
});

describe('routeJavaScript', () => {
  it('counts the entry, the component chunks of the route and its layouts, and their static imports', () => {
    expect(routeJavaScript(manifest, editRoute).sort()).toEqual(
      [
        'assets/index.js',
        'assets/react.js',
        'assets/_app.js',
        'assets/mantine.js',
        'assets/edit.js',
        'assets/editor.js',
      ].sort(),
    );
  });

  it('counts only the entry and its static imports for every route', () => {
    expect(routeJavaScript(manifest, null).sort()).toEqual(['assets/index.js', 'assets/react.js']);
  });

  it('fails rather than measuring nothing when the route is not in the manifest', () => {
    expect(() => routeJavaScript(manifest, 'src/routes/_app/renamed.tsx')).toThrow(/renamed\.tsx/);
  });
});

describe('measureBudget', () => {
  const budget = (limitKb: number): Budget => ({ name: 'email editor', routeFile: editRoute, limitKb });

  it('sums the gzip sizes and passes at or under the limit', () => {
    const result = measureBudget(budget(245), manifest, sizeOf);
    expect(result.gzip).toBe(245 * 1024);
    expect(result.raw).toBe(245 * 4096);
    expect(result.withinBudget).toBe(true);
    expect(describeResult(result)).toBe(
      'email editor: 6 chunks, 980.0 KB, 245.0 KB gzip (budget 245 KB gzip)',
    );
  });

  it('fails over the limit, naming the biggest chunks first', () => {
    const result = measureBudget(budget(244), manifest, sizeOf);
    expect(result.withinBudget).toBe(false);
    const message = describeResult(result, 2);
    expect(message).toContain('245.0 KB gzip (budget 244 KB gzip: OVER)');
    expect(message).toContain(
      '  assets/editor.js: 400.0 KB, 100.0 KB gzip\n  assets/react.js: 240.0 KB, 60.0 KB gzip',
    );
    expect(message).not.toContain('assets/mantine.js');
  });
});
