import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { buildDocsSiteServer } from './http/docs-site.ts';

/** Reads the config, builds the app, listens, and shuts down cleanly on a signal. Nothing else. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  const docs = await buildDocsSiteServer(config.docsDistDir, config.logLevel);

  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await Promise.all([app.close(), docs?.close()]);
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  await app.listen({ port: config.port, host: config.host });
  if (docs) await docs.listen({ port: config.docsPort, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const local = `http://localhost:${port}`;
  const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  process.stdout.write(
    [
      '',
      `Letterset is running on ${database}`,
      `  Web app:   ${local}/`,
      `  API:       ${local}/api/v1`,
      `  OpenAPI:   ${local}/openapi.yml`,
      `  Health:    ${local}/healthz  ·  ${local}/readyz`,
      docs
        ? `  Docs:      http://localhost:${config.docsPort}/`
        : '  Docs:      not built (npm run build -w @letterset/docs)',
      '',
    ].join('\n'),
  );
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
