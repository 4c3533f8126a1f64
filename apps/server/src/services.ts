import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { Mailer } from './integrations/mail/mailer.ts';
import type { JobSender } from './jobs/job-payloads.ts';
import type { Renderer } from './render-pool/render-pool.ts';
import type { RenderSources } from './render-pool/render-sources.ts';
import type { Secrets } from './security/secrets.ts';
import type { FileStorage } from './storage/file-storage.ts';

/**
 * Everything a service or a job handler may use of the running server. A function takes this (or
 * `Pick<Services, …>` of the parts it uses) as its first argument, so its signature says what it
 * touches; routes hand it over from `app.services`, job handlers from their context. Nothing here
 * knows Fastify's app, and this module imports only types, so any layer may depend on it.
 */
export interface Services {
  database: DatabaseHandle;
  config: Config;
  storage: FileStorage;
  secrets: Secrets;
  mailer: Mailer;
  /** Sends background work by name; services never import job definitions. */
  jobs: JobSender;
  /** Renders user templates in worker threads, within a time budget per request. */
  renderer: Renderer;
  /** What renders and content checks read of design systems and dynamic content, kept in memory. */
  renderSources: RenderSources;
  log: FastifyBaseLogger;
}
