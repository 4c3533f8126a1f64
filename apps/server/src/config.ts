import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseSecretsKey } from './security/secrets.ts';

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
  /** Where the command was typed (npm's INIT_CWD): a path given on the command line is relative to it. */
  invocationDir: string;
  /** A PostgreSQL URL switches from the embedded PGlite database to a real server. */
  databaseUrl: string | undefined;
  /** Absolute origin the API is reached at; the OpenAPI document's server URL. */
  publicApiUrl: string;
  /** Browser origins allowed to call the API with credentials (the docs site needs none: see openapi CORS). */
  corsOrigins: string[];
  /**
   * Proxies whose `X-Forwarded-For` is believed (`TRUST_PROXY`: addresses, CIDR ranges, or
   * `loopback`, `linklocal`, `uniquelocal`, comma-separated; none by default). Behind a reverse
   * proxy or load balancer, name it: sign-in counts failures per client address, and without it
   * every client has the proxy's address.
   */
  trustProxy: string[];
  /** Built web app served at `/`, when the folder exists. */
  webDistDir: string;
  /** Built docs site, served on `docsPort` when the folder exists (`npm start`). */
  docsDistDir: string;
  docsPort: number;
  logLevel: LogLevel;
  /**
   * What this process does. Several processes may share one PostgreSQL database (`DATABASE_URL`)
   * and one S3 bucket, each in one of three roles:
   * - API and job workers (the default, and the only role on the embedded PGlite database, which
   *   belongs to one process);
   * - API only (`RUN_JOB_WORKERS=false`): answers HTTP and sends jobs, but runs none;
   * - job worker only (`SERVE_API=false`): runs jobs, and listens on `PORT` only for the health
   *   checks `/healthz` and `/readyz`.
   */
  serveApi: boolean;
  /** Background job workers; off for processes that only serve the API and send jobs (and for tests). */
  runJobWorkers: boolean;
  /**
   * A job whose worker sends no heartbeat for this long (its process died) runs again elsewhere;
   * every process checks for such jobs every half of it. pg-boss allows 10 or more.
   */
  jobHeartbeatSeconds: number;
  /**
   * How long a SIGTERM or SIGINT may take: stop accepting connections, finish the requests under
   * way, hand running jobs back to the queue, close the database. Past it the process exits
   * anyway, with code 1. Keep it below the orchestrator's grace period (30 s in Kubernetes).
   */
  shutdownTimeoutMs: number;
  /** Where people open the web app: links in emails (invitations) point here. */
  appUrl: string;
  /** `smtp://user:pass@host:port` (or smtps://); unset writes mail to the outbox folder instead. */
  smtpUrl: string | undefined;
  /** The From header of the mail Letterset sends. */
  mailFrom: string;
  /** Where mail goes without SMTP, one file per message: `DATA_DIR/outbox` by default. */
  outboxDir: string;
  /** Where uploaded and generated files live. */
  storage: StorageConfig;
  /** The largest image upload accepted, in bytes. */
  maxImageBytes: number;
  /**
   * The time one request (or one export locale, one AI answer) may spend rendering templates,
   * shared by every component instance and locale it renders (`RENDER_BUDGET_MS`, default 5000).
   * A render past it answers 422 naming the component.
   */
  renderBudgetMs: number;
  /** Worker threads that render templates off the event loop (`RENDER_THREADS`, default: the cores). */
  renderThreads: number;
  /**
   * The Chromium (or Chrome) executable that prints PDF exports (`CHROMIUM_PATH`, by default
   * Debian's /usr/bin/chromium). Without one, PDF exports fail with a message saying so.
   */
  chromiumPath: string;
  /**
   * Requests Letterset makes on a user's behalf (feeds): private, loopback and link-local
   * addresses are refused unless `ALLOW_PRIVATE_NETWORK_FETCH=true` (a self-hosted intranet API).
   */
  outboundFetch: { allowPrivateNetwork: boolean; timeoutMs: number; maxBytes: number };
  /**
   * The key that encrypts secrets users give Letterset (connector credentials): `SECRETS_KEY`, 32
   * bytes as 64 hex characters or base64. Unset, a key is generated into `DATA_DIR/secrets.key` on
   * first start; processes that share a database must share the key (set `SECRETS_KEY` on each).
   */
  secretsKey: Buffer | undefined;
  /** Where connectors reach the sending platforms: their public hosts, except under test. */
  connectorEndpoints: ConnectorEndpoints;
  /**
   * The AI provider of organizations that have not chosen one in Settings › AI (`AI_PROVIDER`,
   * `AI_BASE_URL`, `AI_MODEL`, `AI_IMAGE_MODEL`, `AI_API_KEY`); unset, AI features are off until
   * an Admin sets a provider. The operator chose this base URL, so it may be on a private address
   * (a local Ollama); a URL an Admin types is held to the private-address refusal.
   */
  aiDefaults: AiProviderDefaults | undefined;
}

export const aiProviderNames = ['openai', 'anthropic', 'openai_compatible'] as const;
export type AiProviderName = (typeof aiProviderNames)[number];

export interface AiProviderDefaults {
  provider: AiProviderName;
  baseUrl: string | undefined;
  model: string;
  imageModel: string | undefined;
  apiKey: string | undefined;
}

/**
 * Base URLs of the sending platforms. Not a user setting: only tests point them at the local fake
 * servers (`LETTERSET_TEST_CONNECTOR_ENDPOINTS`, a JSON object with any of these keys), and
 * only those fakes' origins may then be on a loopback or private address.
 */
export interface ConnectorEndpoints {
  iterableUs: string;
  iterableEu: string;
  /** `{subdomain}` stands for the tenant's subdomain. */
  salesforceAuth: string;
  /** Origins exempt from the private-address refusal: the test fakes, none in production. */
  privateOrigins: string[];
}

export const productionConnectorEndpoints: ConnectorEndpoints = {
  iterableUs: 'https://api.iterable.com',
  iterableEu: 'https://api.eu.iterable.com',
  salesforceAuth: 'https://{subdomain}.auth.marketingcloudapis.com',
  privateOrigins: [],
};

export type StorageConfig =
  /** Files under `dir`, served by this server at `${publicBaseUrl}/<key>`. */
  | { kind: 'local'; dir: string; publicBaseUrl: string }
  /** An S3-compatible bucket; files are public at `${publicBaseUrl}/<key>` (a CDN or the bucket's URL). */
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      publicBaseUrl: string;
    };

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

  const port = parsePort(env.PORT, problems, 3000, 'PORT');
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
  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);

  const maxImageBytes = Number(env.MAX_IMAGE_BYTES ?? 5 * 1024 * 1024);
  if (!Number.isInteger(maxImageBytes) || maxImageBytes < 1)
    problems.push('MAX_IMAGE_BYTES must be a positive whole number of bytes');
  const dataDir = path.resolve(invocationDir, env.DATA_DIR ?? path.join(repositoryRoot, 'data'));
  const storage = parseStorage(env, { dataDir, invocationDir, publicApiUrl }, problems);
  const allowPrivateNetworkFetch = env.ALLOW_PRIVATE_NETWORK_FETCH ?? 'false';
  if (allowPrivateNetworkFetch !== 'true' && allowPrivateNetworkFetch !== 'false')
    problems.push('ALLOW_PRIVATE_NETWORK_FETCH must be true or false');

  const serveApi = parseBoolean('SERVE_API', env.SERVE_API, true, problems);
  const runJobWorkers = parseBoolean('RUN_JOB_WORKERS', env.RUN_JOB_WORKERS, true, problems);
  if (!serveApi && !runJobWorkers)
    problems.push('SERVE_API=false and RUN_JOB_WORKERS=false leave the process nothing to do');
  if (!serveApi && databaseUrl === undefined)
    problems.push(
      'SERVE_API=false needs DATABASE_URL: the embedded database belongs to one process, which serves the API',
    );
  const jobHeartbeatSeconds = parseInteger('JOB_HEARTBEAT_SECONDS', env.JOB_HEARTBEAT_SECONDS, 30, problems, {
    minimum: 10,
  });
  const shutdownTimeoutMs = parseInteger('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 25_000, problems, {
    minimum: 1_000,
  });

  const renderBudgetMs = parseInteger('RENDER_BUDGET_MS', env.RENDER_BUDGET_MS, 5_000, problems, {
    minimum: 100,
  });
  const renderThreads = parseInteger(
    'RENDER_THREADS',
    env.RENDER_THREADS,
    Math.max(1, availableParallelism()),
    problems,
    { minimum: 1 },
  );

  const secretsKeyText = emptyToUndefined(env.SECRETS_KEY);
  const secretsKey = secretsKeyText === undefined ? undefined : parseSecretsKey(secretsKeyText);
  if (secretsKey === null)
    problems.push('SECRETS_KEY must be 32 bytes written as 64 hex characters or as base64');
  const connectorEndpoints = parseConnectorEndpoints(env.LETTERSET_TEST_CONNECTOR_ENDPOINTS, problems);
  const aiDefaults = parseAiDefaults(env, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    invocationDir,
    databaseUrl,
    publicApiUrl,
    corsOrigins,
    trustProxy,
    webDistDir: path.resolve(invocationDir, env.WEB_DIST_DIR ?? path.join(repositoryRoot, 'apps/web/dist')),
    docsDistDir: path.resolve(
      invocationDir,
      env.DOCS_DIST_DIR ?? path.join(repositoryRoot, 'apps/docs/build'),
    ),
    docsPort: parsePort(env.DOCS_PORT, problems, 3001, 'DOCS_PORT'),
    logLevel,
    serveApi,
    runJobWorkers,
    jobHeartbeatSeconds,
    shutdownTimeoutMs,
    appUrl,
    smtpUrl,
    mailFrom: env.MAIL_FROM ?? 'Letterset <no-reply@letterset.localhost>',
    outboxDir: path.resolve(invocationDir, env.OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
    storage,
    maxImageBytes,
    renderBudgetMs,
    renderThreads,
    chromiumPath: path.resolve(invocationDir, emptyToUndefined(env.CHROMIUM_PATH) ?? '/usr/bin/chromium'),
    outboundFetch: {
      allowPrivateNetwork: allowPrivateNetworkFetch === 'true',
      timeoutMs: 10_000,
      maxBytes: 1024 * 1024,
    },
    secretsKey: secretsKey ?? undefined,
    connectorEndpoints,
    aiDefaults,
  };
}

function parseAiDefaults(env: Environment, problems: string[]): AiProviderDefaults | undefined {
  const provider = emptyToUndefined(env.AI_PROVIDER);
  if (provider === undefined) return undefined;
  if (!(aiProviderNames as readonly string[]).includes(provider)) {
    problems.push(`AI_PROVIDER must be one of ${aiProviderNames.join(', ')}`);
    return undefined;
  }
  const model = emptyToUndefined(env.AI_MODEL);
  if (model === undefined)
    problems.push('AI_MODEL is needed with AI_PROVIDER (the model to ask, e.g. gpt-4.1-mini)');
  const baseUrl = emptyToUndefined(env.AI_BASE_URL)?.replace(/\/+$/, '');
  if (baseUrl !== undefined && !/^https?:\/\//.test(baseUrl))
    problems.push('AI_BASE_URL must be an http(s) URL');
  if (provider === 'openai_compatible' && baseUrl === undefined)
    problems.push(
      'AI_BASE_URL is needed with AI_PROVIDER=openai_compatible (e.g. http://127.0.0.1:11434/v1)',
    );
  return {
    provider: provider as AiProviderName,
    baseUrl,
    model: model ?? '',
    imageModel: emptyToUndefined(env.AI_IMAGE_MODEL),
    apiKey: emptyToUndefined(env.AI_API_KEY),
  };
}

function parseConnectorEndpoints(text: string | undefined, problems: string[]): ConnectorEndpoints {
  if (text === undefined || text.trim() === '') return productionConnectorEndpoints;
  const name = 'LETTERSET_TEST_CONNECTOR_ENDPOINTS';
  let given: Record<string, unknown>;
  try {
    given = JSON.parse(text);
  } catch {
    problems.push(`${name} must be a JSON object`);
    return productionConnectorEndpoints;
  }
  const endpoints = { ...productionConnectorEndpoints, privateOrigins: [] as string[] };
  for (const key of ['iterableUs', 'iterableEu', 'salesforceAuth'] as const) {
    const value = given[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !/^https?:\/\//.test(value)) {
      problems.push(`${name}.${key} must be an http(s) URL`);
      continue;
    }
    endpoints[key] = value.replace(/\/+$/, '');
    endpoints.privateOrigins.push(new URL(value.replace('{subdomain}', 'tenant')).origin);
  }
  return endpoints;
}

function parseStorage(
  env: Environment,
  paths: { dataDir: string; invocationDir: string; publicApiUrl: string },
  problems: string[],
): StorageConfig {
  const kind = env.STORAGE ?? 'local';
  if (kind === 'local') {
    return {
      kind,
      dir: path.resolve(paths.invocationDir, env.FILES_DIR ?? path.join(paths.dataDir, 'files')),
      publicBaseUrl: `${paths.publicApiUrl}/files`,
    };
  }
  if (kind !== 's3') {
    problems.push('STORAGE must be local or s3');
    return { kind: 'local', dir: '', publicBaseUrl: '' };
  }
  const bucket = emptyToUndefined(env.S3_BUCKET);
  if (!bucket) problems.push('S3_BUCKET is required with STORAGE=s3');
  const publicBaseUrl = emptyToUndefined(env.S3_PUBLIC_BASE_URL);
  if (!publicBaseUrl)
    problems.push(
      'S3_PUBLIC_BASE_URL is required with STORAGE=s3 (the public address of the bucket or its CDN)',
    );
  else parseOrigin('S3_PUBLIC_BASE_URL', publicBaseUrl, problems);
  const endpoint = emptyToUndefined(env.S3_ENDPOINT);
  const accessKeyId = emptyToUndefined(env.S3_ACCESS_KEY_ID);
  const secretAccessKey = emptyToUndefined(env.S3_SECRET_ACCESS_KEY);
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  }
  return {
    kind,
    bucket: bucket ?? '',
    region: env.S3_REGION ?? 'us-east-1',
    endpoint,
    // S3-compatible servers (MinIO, Ceph, R2...) mostly want path-style addressing.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : endpoint !== undefined,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    publicBaseUrl: (publicBaseUrl ?? '').replace(/\/+$/, ''),
  };
}

const namedProxyRanges = ['loopback', 'linklocal', 'uniquelocal'];

function parseTrustProxy(value: string | undefined, problems: string[]): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const validPrefix =
      prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
    if (namedProxyRanges.includes(entry)) continue;
    if (family === 0 || !validPrefix || rest.length > 0)
      problems.push(
        `TRUST_PROXY must list addresses, CIDR ranges or ${namedProxyRanges.join(', ')}; "${entry}" is none`,
      );
  }
  return entries;
}

function parsePort(value: string | undefined, problems: string[], fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`${name} must be an integer from 0 to 65535`);
    return fallback;
  }
  return port;
}

function parseBoolean(
  name: string,
  value: string | undefined,
  fallback: boolean,
  problems: string[],
): boolean {
  if (value === undefined || value === '') return fallback;
  if (value !== 'true' && value !== 'false') problems.push(`${name} must be true or false`);
  return value === 'true';
}

function parseInteger(
  name: string,
  value: string | undefined,
  fallback: number,
  problems: string[],
  limits: { minimum: number },
): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < limits.minimum) {
    problems.push(`${name} must be a whole number of at least ${limits.minimum}`);
    return fallback;
  }
  return number;
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
