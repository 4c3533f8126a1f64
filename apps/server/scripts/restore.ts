/**
 * `npm run restore -- FILE`, with the server stopped: puts a backup made by `npm run backup` in
 * place of the data folder (DATA_DIR, and FILES_DIR when it is elsewhere), keeping the previous one
 * beside it. The next `npm start` migrates the restored database as usual.
 */
import path from 'node:path';
import { describeContents } from '../src/backups/backup-manifest.ts';
import { failureMessage } from '../src/backups/embedded-data.ts';
import { restoreDataFolder } from '../src/backups/restore.ts';
import { loadConfig } from '../src/config.ts';

try {
  const config = loadConfig();
  const argument = process.argv[2];
  if (!argument) {
    process.stderr.write('Which backup? npm run restore -- FILE (with the server stopped)\n');
    process.exitCode = 1;
  } else {
    const result = await restoreDataFolder(config, path.resolve(config.invocationDir, argument));
    const kept = [result.previousDataDir, result.previousFilesDir].filter(Boolean);
    process.stdout.write(
      [
        `Restored the backup of ${result.manifest.createdAt} into ${result.dataDir}`,
        ...describeContents(result.manifest),
        kept.length > 0
          ? `The previous data is kept in ${kept.join(' and ')}: delete it once the restored server works.`
          : 'There was no previous data to keep.',
        'Start the server as usual (npm start): it applies any newer migrations.',
        '',
      ].join('\n'),
    );
  }
} catch (error) {
  process.stderr.write(`${failureMessage('Restore', error)}\n`);
  process.exitCode = 1;
}
