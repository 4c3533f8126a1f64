// Bundled by Vite for the browser in render-parity.spec.ts: the same @letterset/core the server runs.
import { definitionsFromImport, render, starterDesignSystem } from '@letterset/core';

(globalThis as Record<string, unknown>).lettersetCore = {
  definitionsFromImport,
  render,
  starterDesignSystem,
};
