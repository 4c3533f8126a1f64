import path from 'node:path';

/**
 * The server's whole configuration. This module is the only reader of `process.env`:
 * everything else receives a `Config`.
 */
export interface Config {
  /** TCP port the HTTP server listens on. */
  port: number;
  /** Interface the HTTP server binds to. */
  host: string;
  /** Folder for the embedded database, the pid lock and local files. */
  dataDir: string;
  /** A PostgreSQL URL switches from the embedded PGlite database to a real server. */
  databaseUrl: string | undefined;
  /** Absolute origin the API is reached at; the OpenAPI document's server URL. */
  publicApiUrl: string;
  /** Browser origins allowed to call the API with credentials (the docs site needs none: see openapi CORS). */
  corsOrigins: string[];
  /** Built web app served at `/`, when the folder exists. */
  webDistDir: string;
  logLevel: LogLevel;
  /** Background job workers; off only for processes that just enqueue (and for tests). */
  runJobWorkers: boolean;
  /** Where people open the web app: links in emails (invitations) point here. */
  appUrl: string;
  /** `smtp://user:pass@host:port` (or smtps://); unset writes mail to the outbox folder instead. */
  smtpUrl: string | undefined;
  /** The From header of the mail Letterset sends. */
  mailFrom: string;
  /** Where mail goes without SMTP, one file per message: `DATA_DIR/outbox` by default. */
  outboxDir: string;
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

type Environment = Record<string, string | undefined>;

/** Reads and validates the environment once; every problem is reported together. */
export function loadConfig(env: Environment = process.env): Config {
  const problems: string[] = [];
  // npm runs workspace scripts inside the workspace folder; INIT_CWD is where the user typed the command.
  const invocationDir = env.INIT_CWD ?? process.cwd();

  const port = parsePort(env.PORT, problems);
  const publicApiUrl = parseOrigin(
    'PUBLIC_API_URL',
    env.PUBLIC_API_URL ?? `http://localhost:${port}`,
    problems,
  );
  const appUrl = env.APP_URL ? parseOrigin('APP_URL', env.APP_URL, problems) : publicApiUrl;
  const smtpUrl = emptyToUndefined(env.SMTP_URL);
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl))
    problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  const databaseUrl = emptyToUndefined(env.DATABASE_URL);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!logLevels.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${logLevels.join(', ')}`);
  }
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) parseOrigin('CORS_ORIGINS', origin, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  const dataDir = path.resolve(invocationDir, env.DATA_DIR ?? path.join(repositoryRoot, 'data'));
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl,
    publicApiUrl,
    corsOrigins,
    webDistDir: path.resolve(invocationDir, env.WEB_DIST_DIR ?? path.join(repositoryRoot, 'apps/web/dist')),
    logLevel,
    runJobWorkers: env.RUN_JOB_WORKERS !== 'false',
    appUrl,
    smtpUrl,
    mailFrom: env.MAIL_FROM ?? 'Letterset <no-reply@letterset.localhost>',
    outboxDir: path.resolve(invocationDir, env.OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
  };
}

function parsePort(value: string | undefined, problems: string[]): number {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push('PORT must be an integer from 0 to 65535');
    return 3000;
  }
  return port;
}

function parseOrigin(name: string, value: string, problems: string[]): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return url.origin;
  } catch {
    problems.push(`${name} must be an absolute http(s) URL, got "${value}"`);
    return value;
  }
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
