import { type Config, ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { type ServerProcess, startServerProcess, stopOnSignals } from './server-process.ts';

/** Reads the config, starts the process in its role, says where it listens, and stops on a signal. */
async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServerProcess(config);
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
