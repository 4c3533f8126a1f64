import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { type DatabaseHandle, openConfiguredDatabase } from './db/client.ts';
import { registerAccessControl } from './http/access.ts';
import { answerFrameworkError, registerErrorHandling, routeNotFound } from './http/errors.ts';
import { logSerializers } from './http/log-redaction.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerRequestLimits } from './http/request-limits.ts';
import { sharedSchemas } from './http/schemas.ts';
import { buildLazySerializerFactory } from './http/serialization.ts';
import { registerUploads } from './http/uploads.ts';
import { buildValidatorFactory } from './http/validation.ts';
import { registerWebApp, webAppFallback } from './http/web-app.ts';
import { createMailer, type Mailer } from './integrations/mail/mailer.ts';
import { type JobKind, JobQueue } from './jobs/queue.ts';
import { jobKinds } from './jobs/registry.ts';
import { registerAuditTrail } from './modules/audit-logs/audit-logs.routes.ts';
import { registerEmailEvents } from './modules/emails/email-event-stream.ts';
import { modules } from './modules/index.ts';
import { createRenderPool } from './render-pool/render-pool.ts';
import { RenderSources, registerRenderSources } from './render-pool/render-sources.ts';
import { createSecrets, loadSecretsKey } from './security/secrets.ts';
import type { Services } from './services.ts';
import { createFileStorage } from './storage/index.ts';
import { localFilesRoutes } from './storage/local-files.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What routes hand to services and job handlers (see services.ts). */
    services: Services;
    /** The job queue itself, which the composition starts and stops; services send jobs through `services.jobs`. */
    jobs: JobQueue;
  }
}

export type App = FastifyInstance;

export interface AppDependencies {
  /** An open, migrated database, which the app then owns; by default one is opened from the config. */
  database: DatabaseHandle;
  /** The kinds of background work; the production registry by default. */
  jobKinds: readonly JobKind[];
  /** Where mail goes; by default SMTP or the outbox folder, from the config. */
  mailer: Mailer;
  /** Where log lines go; standard output by default (tests read them to prove no secret is logged). */
  logStream: { write(line: string): void };
}

const requestIdHeader = 'x-request-id';

/**
 * Builds the whole API server without listening: `main.ts` listens, tests call `inject()`.
 * Closing the app stops the job workers, then closes the database.
 */
export async function buildApp(config: Config, dependencies: Partial<AppDependencies> = {}): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Request bodies and headers are never logged; these paths are the belt to those braces.
      redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token', '*.secret'],
      // Errors without their SQL parameters, request URLs without their tokens (see log-redaction.ts).
      serializers: logSerializers,
      ...(dependencies.logStream ? { stream: dependencies.logStream } : {}),
    },
    genReqId: (request) => {
      const fromClient = request.headers[requestIdHeader];
      return typeof fromClient === 'string' && /^[\w-]{1,64}$/.test(fromClient) ? fromClient : randomUUID();
    },
    bodyLimit: 2 * 1024 * 1024,
    // request.ip is the client's address only through proxies the operator named.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    frameworkErrors: answerFrameworkError,
    schemaController: {
      compilersFactory: {
        buildValidator: buildValidatorFactory(),
        buildSerializer: buildLazySerializerFactory(),
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header(requestIdHeader, request.id);
  });

  const database = dependencies.database ?? (await openConfiguredDatabase(config));
  const storage = createFileStorage(config.storage);
  const secrets = createSecrets(
    loadSecretsKey({ configuredKey: config.secretsKey, dataDir: config.dataDir }),
  );
  // Its threads start with the first render (none start if nothing renders).
  const renderPool = createRenderPool({ threads: config.renderThreads, budgetMs: config.renderBudgetMs });
  const mailer = dependencies.mailer ?? createMailer(config, app.log);
  try {
    app.decorate(
      'jobs',
      await JobQueue.start(database, dependencies.jobKinds ?? jobKinds, {
        heartbeatSeconds: config.jobHeartbeatSeconds,
        log: app.log,
      }),
    );
  } catch (error) {
    await database.close();
    throw error;
  }
  app.decorate('services', {
    database,
    config,
    storage,
    secrets,
    mailer,
    jobs: app.jobs,
    renderer: renderPool,
    renderSources: new RenderSources({ database, log: app.log }),
    log: app.log,
  } satisfies Services);
  app.addHook('onClose', async () => {
    await app.jobs.stop();
    await database.close();
    mailer.close();
    // After the job workers stopped: a job's last render still had its threads.
    await renderPool.close();
  });
  // Workers start once every service a handler may use is there.
  if (config.runJobWorkers) {
    try {
      await app.jobs.startWorkers(app.services);
    } catch (error) {
      await app.close();
      throw error;
    }
  }

  for (const schema of [...sharedSchemas, ...modules.flatMap((module) => module.schemas ?? [])])
    app.addSchema(schema);
  registerErrorHandling(app);
  await app.register(cookie);
  await registerUploads(app, { maxFileBytes: config.maxImageBytes });
  registerAccessControl(app, app.services);
  registerRequestLimits(app, { maxUploadFileBytes: config.maxImageBytes });
  registerAuditTrail(app);
  registerRenderSources(app);
  registerEmailEvents(app);
  await app.register(cors, {
    // The OpenAPI document is public and fetched by the docs site from any host; the API
    // itself only answers browsers on the configured origins (the web app is same-origin).
    delegator: (request, callback) => {
      const isPublicDocument = request.url?.startsWith('/openapi.') ?? false;
      callback(
        null,
        isPublicDocument
          ? { origin: '*' }
          : {
              origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
              credentials: true,
              // A browser on another origin reads when a 429 says to try again.
              exposedHeaders: ['Retry-After'],
            },
      );
    },
  });
  await registerOpenApi(app, config);

  for (const module of modules) await app.register(module.routes);
  if (config.storage.kind === 'local') await app.register(localFilesRoutes);
  const servesWebApp = await registerWebApp(app, config.webDistDir);
  app.setNotFoundHandler(servesWebApp ? webAppFallback : routeNotFound);
  return app;
}
