/**
 * Shared by the `npm start` build steps: a build is reused only while it is newer than every
 * source it was made from, so a second start with nothing changed skips a ~20 s build.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestChange(sourcePath: string): number {
  if (!existsSync(sourcePath)) return 0;
  const stats = statSync(sourcePath);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(sourcePath)) {
    newest = Math.max(newest, newestChange(path.join(sourcePath, entry)));
  }
  return newest;
}

/** True when `buildMarker` exists and is newer than every file under `sources` (files or folders). */
export function isBuildFresh(buildMarker: string, sources: readonly string[]): boolean {
  if (!existsSync(buildMarker)) return false;
  return statSync(buildMarker).mtimeMs > Math.max(0, ...sources.map(newestChange));
}
