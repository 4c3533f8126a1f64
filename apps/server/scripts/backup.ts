/**
 * `npm run backup -- [FILE]`, with the server stopped: the embedded database and the local files
 * in one archive (by default `letterset-backup-<time>.tar.gz` where the command is typed). Reads
 * DATA_DIR and FILES_DIR like the server; refuses with PostgreSQL or S3 (see the README's Backups).
 */
import path from 'node:path';
import { backupDataFolder } from '../src/backups/backup.ts';
import { describeContents, formatBytes } from '../src/backups/backup-manifest.ts';
import { failureMessage } from '../src/backups/embedded-data.ts';
import { loadConfig } from '../src/config.ts';

try {
  const config = loadConfig();
  const now = new Date();
  const defaultName = `letterset-backup-${now
    .toISOString()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`;
  const file = path.resolve(config.invocationDir, process.argv[2] ?? defaultName);
  const result = await backupDataFolder(config, file, { now });
  process.stdout.write(
    [
      `Backed up ${config.dataDir} to ${result.file} (${formatBytes(result.bytes)})`,
      ...describeContents(result.manifest),
      `Restore it, with the server stopped, with: npm run restore -- ${result.file}`,
      '',
    ].join('\n'),
  );
} catch (error) {
  process.stderr.write(`${failureMessage('Backup', error)}\n`);
  process.exitCode = 1;
}
