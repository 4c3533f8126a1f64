import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults: port 3000, embedded database under the repository, localhost URL', () => {
    const config = loadConfig({ INIT_CWD: '/somewhere' });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      publicApiUrl: 'http://localhost:3000',
      corsOrigins: [],
      logLevel: 'info',
      serveApi: true,
      runJobWorkers: true,
      jobHeartbeatSeconds: 30,
      shutdownTimeoutMs: 25_000,
      appUrl: 'http://localhost:3000',
      smtpUrl: undefined,
    });
    expect(config.dataDir).toBe(path.resolve(import.meta.dirname, '../../../data'));
  });

  it('refuses private network fetches unless ALLOW_PRIVATE_NETWORK_FETCH is true', () => {
    expect(loadConfig({}).outboundFetch).toEqual({
      allowPrivateNetwork: false,
      timeoutMs: 10_000,
      maxBytes: 1024 * 1024,
    });
    expect(loadConfig({ ALLOW_PRIVATE_NETWORK_FETCH: 'true' }).outboundFetch.allowPrivateNetwork).toBe(true);
    expect(() => loadConfig({ ALLOW_PRIVATE_NETWORK_FETCH: 'yes' })).toThrow(
      'ALLOW_PRIVATE_NETWORK_FETCH must be true or false',
    );
  });

  it('trusts no proxy unless TRUST_PROXY names addresses, ranges or named ranges', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '2001:db8::1',
    ]);
    for (const wrong of ['true', '10.0.0.0/33', 'proxy.example.com'])
      expect(() => loadConfig({ TRUST_PROXY: wrong })).toThrow(/TRUST_PROXY must list addresses/);
  });

  it('reads SECRETS_KEY as 32 bytes, and refuses anything else', () => {
    expect(loadConfig({}).secretsKey).toBeUndefined();
    expect(loadConfig({ SECRETS_KEY: 'ab'.repeat(32) }).secretsKey).toEqual(Buffer.alloc(32, 0xab));
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).toThrow(
      'SECRETS_KEY must be 32 bytes written as 64 hex characters or as base64',
    );
  });

  it('reaches the real platforms unless a test points connectors at its fakes', () => {
    expect(loadConfig({}).connectorEndpoints).toEqual({
      iterableUs: 'https://api.iterable.com',
      iterableEu: 'https://api.eu.iterable.com',
      salesforceAuth: 'https://{subdomain}.auth.marketingcloudapis.com',
      privateOrigins: [],
    });
    const faked = loadConfig({
      LETTERSET_TEST_CONNECTOR_ENDPOINTS: JSON.stringify({ iterableUs: 'http://127.0.0.1:4217/' }),
    }).connectorEndpoints;
    expect(faked).toMatchObject({
      iterableUs: 'http://127.0.0.1:4217',
      privateOrigins: ['http://127.0.0.1:4217'],
    });
    expect(faked.iterableEu).toBe('https://api.eu.iterable.com');
    expect(() => loadConfig({ LETTERSET_TEST_CONNECTOR_ENDPOINTS: '{"iterableUs": "ftp://x"}' })).toThrow(
      'LETTERSET_TEST_CONNECTOR_ENDPOINTS.iterableUs must be an http(s) URL',
    );
  });

  it('resolves a relative DATA_DIR against the folder the command was typed in', () => {
    const config = loadConfig({ INIT_CWD: '/srv/letterset', DATA_DIR: 'state' });
    expect(config.dataDir).toBe('/srv/letterset/state');
    // Command-line arguments (the backup file) resolve from there too.
    expect(config.invocationDir).toBe('/srv/letterset');
  });

  it('follows PORT in the default public URL, and keeps only the origin of PUBLIC_API_URL', () => {
    expect(loadConfig({ PORT: '8080' }).publicApiUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_API_URL: 'https://api.example.com/' }).publicApiUrl).toBe(
      'https://api.example.com',
    );
  });

  it('reads DATABASE_URL, CORS_ORIGINS and RUN_JOB_WORKERS', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/letterset',
      CORS_ORIGINS: 'http://localhost:5173, https://app.example.com',
      RUN_JOB_WORKERS: 'false',
    });
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/letterset');
    expect(config.corsOrigins).toEqual(['http://localhost:5173', 'https://app.example.com']);
    expect(config.runJobWorkers).toBe(false);
  });

  it('reads the process role: a worker-only process needs PostgreSQL, and a process must do something', () => {
    const databaseUrl = 'postgres://postgres@127.0.0.1:5432/letterset';
    expect(loadConfig({ DATABASE_URL: databaseUrl, SERVE_API: 'false' })).toMatchObject({
      serveApi: false,
      runJobWorkers: true,
    });
    expect(() => loadConfig({ SERVE_API: 'false' })).toThrow(
      'SERVE_API=false needs DATABASE_URL: the embedded database belongs to one process, which serves the API',
    );
    expect(() =>
      loadConfig({ DATABASE_URL: databaseUrl, SERVE_API: 'false', RUN_JOB_WORKERS: 'false' }),
    ).toThrow('SERVE_API=false and RUN_JOB_WORKERS=false leave the process nothing to do');
    expect(() => loadConfig({ RUN_JOB_WORKERS: 'no' })).toThrow('RUN_JOB_WORKERS must be true or false');
  });

  it('reads the job heartbeat and the shutdown bound, within their limits', () => {
    expect(loadConfig({ JOB_HEARTBEAT_SECONDS: '10', SHUTDOWN_TIMEOUT_MS: '5000' })).toMatchObject({
      jobHeartbeatSeconds: 10,
      shutdownTimeoutMs: 5_000,
    });
    expect(() => loadConfig({ JOB_HEARTBEAT_SECONDS: '5' })).toThrow(
      'JOB_HEARTBEAT_SECONDS must be a whole number of at least 10',
    );
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '2.5s' })).toThrow(
      'SHUTDOWN_TIMEOUT_MS must be a whole number of at least 1000',
    );
  });

  it('reads the render budget and the render threads: 5 s and one thread per core by default', () => {
    expect(loadConfig({})).toMatchObject({
      renderBudgetMs: 5_000,
      renderThreads: Math.max(1, availableParallelism()),
    });
    expect(loadConfig({ RENDER_BUDGET_MS: '1500', RENDER_THREADS: '3' })).toMatchObject({
      renderBudgetMs: 1_500,
      renderThreads: 3,
    });
    expect(() => loadConfig({ RENDER_BUDGET_MS: '50' })).toThrow(
      'RENDER_BUDGET_MS must be a whole number of at least 100',
    );
    expect(() => loadConfig({ RENDER_THREADS: '0' })).toThrow(
      'RENDER_THREADS must be a whole number of at least 1',
    );
  });

  it('reports every problem at once', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        PUBLIC_API_URL: 'ftp://x',
        SMTP_URL: 'http://mail',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'PORT must be an integer from 0 to 65535',
        'PUBLIC_API_URL must be an absolute http(s) URL, got "ftp://x"',
        'SMTP_URL must be an smtp:// or smtps:// URL',
        'DATABASE_URL must be a postgres:// or postgresql:// URL',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      ]);
    }
  });
});
