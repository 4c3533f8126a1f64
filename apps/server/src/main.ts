import { type Config, ConfigError, loadConfig } from './config.ts';
import { openConfiguredDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import type { ServerProcess } from './server-process.ts';

/** Reads the config, starts the process in its role, says where it listens, and stops on a signal. */
async function main(): Promise<void> {
  const config = loadConfig();
  // The database opens while the rest of the server's modules load: PGlite compiles its
  // WebAssembly off the main thread and reads its files meanwhile, instead of after them.
  const [opened, loaded] = await Promise.allSettled([
    openConfiguredDatabase(config),
    import('./server-process.ts'),
  ]);
  if (loaded.status === 'rejected') {
    if (opened.status === 'fulfilled') await opened.value.close();
    throw loaded.reason;
  }
  if (opened.status === 'rejected') throw opened.reason;
  const { startServerProcess, stopOnSignals } = loaded.value;
  const server = await startServerProcess(config, { dependencies: { database: opened.value } });
  stopOnSignals(server);
  process.stdout.write(startupBanner(config, server));
}

function startupBanner(config: Config, server: ServerProcess): string {
  const local = `http://localhost:${server.port}`;
  const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  const health = `  Health:    ${local}/healthz  ·  ${local}/readyz`;
  if (server.role === 'worker') {
    return ['', `Letterset job worker is running on ${database} (no API: SERVE_API=false)`, health, ''].join(
      '\n',
    );
  }
  return [
    '',
    `Letterset is running on ${database}`,
    `  Web app:   ${local}/`,
    `  API:       ${local}/api/v1`,
    `  OpenAPI:   ${local}/openapi.yml`,
    health,
    server.docsPort !== null
      ? `  Docs:      http://localhost:${server.docsPort}/`
      : '  Docs:      not built (npm run build -w @letterset/docs)',
    ...(server.role === 'api'
      ? ['  Jobs:      sent to the queue; run by other processes (RUN_JOB_WORKERS=false)']
      : []),
    '',
  ].join('\n');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Letterset failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
  }
  process.exit(1);
});
