import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

interface ChunkInfo {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
}

/**
 * After `vite build`, prints the gzip size of the JavaScript the browser must load before the
 * first screen shows: the entry chunk and everything it imports statically (lazily loaded route
 * chunks excluded), and fails the build above the budget so a heavy import into app/ or shared/
 * is caught when it is made.
 */
export function initialJavaScriptBudget({ limitKb }: { limitKb: number }): Plugin {
  return {
    name: 'letterset:initial-javascript-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkInfo>();
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') chunks.set(output.fileName, output);
      }
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        if (initial.has(fileName)) return;
        const chunk = chunks.get(fileName);
        if (!chunk) return;
        initial.add(fileName);
        for (const imported of chunk.imports) visit(imported);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);

      let bytes = 0;
      for (const fileName of initial)
        bytes += gzipSync(chunks.get(fileName)?.code ?? '', { level: 9 }).length;
      const kb = bytes / 1024;
      const summary = `initial route JavaScript: ${kb.toFixed(1)} KB gzip (limit ${limitKb} KB, ${initial.size} chunks)`;
      if (kb > limitKb)
        this.error(`${summary}: over the budget. Move heavy imports behind a lazily loaded route.`);
      this.info(summary);
    },
  };
}
