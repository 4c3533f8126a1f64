import Fastify, { type FastifyInstance } from 'fastify';
import { type App, type AppDependencies, buildApp } from './app.ts';
import type { Config } from './config.ts';
import { buildDocsSiteServer } from './http/docs-site.ts';
import { systemRoutes } from './modules/system/system.routes.ts';

/** What one server process does; several share a PostgreSQL database (see `Config.serveApi`). */
export type ProcessRole = 'api_and_workers' | 'api' | 'worker';

export function processRole(config: Pick<Config, 'serveApi' | 'runJobWorkers'>): ProcessRole {
  if (!config.serveApi) return 'worker';
  return config.runJobWorkers ? 'api_and_workers' : 'api';
}

export interface ServerProcess {
  role: ProcessRole;
  app: App;
  /** Where it listens: the API, or in a worker-only process just the health checks. */
  url: string;
  port: number;
  /** The docs site's port, when this process serves it (the API does, once the docs are built). */
  docsPort: number | null;
  /**
   * Stops gracefully, within `config.shutdownTimeoutMs`: stops accepting connections, lets the
   * requests under way finish (closing their connections after the answer), hands running jobs
   * back to the queue, closes the database. Resolves true when all of it finished in time, false
   * when the bound ran out and the connections left were cut.
   */
  shutdown(): Promise<boolean>;
}

export interface ServerProcessOptions {
  dependencies?: Partial<AppDependencies>;
  /** Adds to the app before it listens: the multi-process tests register their own routes here. */
  extend?: (app: App) => Promise<unknown>;
}

/**
 * Starts a server process in the role its config gives it: the production start-up of `main.ts`,
 * and what the multi-process tests start too. Answers once it listens.
 */
export async function startServerProcess(
  config: Config,
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const role = processRole(config);
  const app = await buildApp(config, options.dependencies);
  const servers: FastifyInstance[] = [];
  let draining = false;
  try {
    // A request under way when the drain starts keeps its keep-alive connection open after the
    // answer (Node closes only the connections idle at `close()`), which would hold the process up
    // to Fastify's keepAliveTimeout of 72 s: its answer says `Connection: close` instead. Requests
    // arriving on open connections during the drain get Fastify's 503 (`return503OnClosing`).
    app.addHook('onSend', async (_request, reply, payload) => {
      if (draining) reply.header('connection', 'close');
      return payload;
    });
    if (options.extend) await options.extend(app);
    await app.ready();

    const listener = role === 'worker' ? await buildHealthServer(app) : app;
    servers.push(listener);
    await listener.listen({ port: config.port, host: config.host });
    const docs = role === 'worker' ? null : await buildDocsSiteServer(config.docsDistDir, config.logLevel);
    if (docs) {
      servers.push(docs);
      await docs.listen({ port: config.docsPort, host: config.host });
    }

    let shuttingDown: Promise<boolean> | null = null;
    const shutdown = () => {
      shuttingDown ??= (async () => {
        draining = true;
        const budgetMs = config.shutdownTimeoutMs;
        // At once and alongside the drain: another worker can take the jobs while requests finish.
        // Leaves time within the budget for pg-boss to stop and the database to close.
        app.jobs
          .stopWorking(Math.max(budgetMs / 2, budgetMs - 2_000))
          .catch((error: unknown) => app.log.error({ err: error }, 'stopping the job workers failed'));
        // Connections whose last answer left before the drain are idle: close them as they appear.
        const idleSweep = setInterval(() => {
          for (const server of servers) server.server.closeIdleConnections();
        }, 250);
        let deadline: NodeJS.Timeout | undefined;
        try {
          const closed = (async () => {
            // The app last: closing it stops the jobs and closes the database.
            await Promise.all(servers.filter((server) => server !== app).map((server) => server.close()));
            await app.close();
            return true;
          })();
          const outOfTime = new Promise<false>((resolve) => {
            deadline = setTimeout(() => resolve(false), budgetMs);
          });
          const inTime = await Promise.race([closed, outOfTime]);
          if (!inTime) {
            app.log.error(
              { shutdownTimeoutMs: budgetMs },
              'shutdown ran out of time; cutting the connections left',
            );
            for (const server of servers) server.server.closeAllConnections();
          }
          return inTime;
        } finally {
          clearTimeout(deadline);
          clearInterval(idleSweep);
        }
      })();
      return shuttingDown;
    };

    return {
      role,
      app,
      url: addressOf(listener),
      port: portOf(listener),
      docsPort: docs ? portOf(docs) : null,
      shutdown,
    };
  } catch (error) {
    await Promise.allSettled(servers.filter((server) => server !== app).map((server) => server.close()));
    await app.close();
    throw error;
  }
}

/** SIGTERM and SIGINT shut the process down gracefully; it exits 0 when that finished in time, else 1. */
export function stopOnSignals(server: ServerProcess, exit: (code: number) => void = process.exit): void {
  const onSignal = (signal: NodeJS.Signals) => {
    server.app.log.info({ signal }, 'shutting down');
    server.shutdown().then(
      (inTime) => exit(inTime ? 0 : 1),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

/**
 * A worker-only process serves no API, but orchestrators still need to ask it whether it is up
 * and whether its database is ready: the API's own `/healthz` and `/readyz`, on `PORT`.
 */
async function buildHealthServer(app: App): Promise<FastifyInstance> {
  const health = Fastify({ loggerInstance: app.log });
  health.decorate('services', app.services);
  await health.register(systemRoutes);
  return health;
}

function addressOf(server: FastifyInstance): string {
  const address = tcpAddress(server);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

function portOf(server: FastifyInstance): number {
  return tcpAddress(server).port;
}

function tcpAddress(server: FastifyInstance) {
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('the server is not listening on TCP');
  return address;
}
