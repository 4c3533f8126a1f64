import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeadersFor, createTestOrganization, type TestOrganization } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { redactUrl, serializeError } from './log-redaction.ts';

describe('request URLs in the log', () => {
  it('keep paths and ordinary parameters, and redact tokens, codes, states, keys and secrets', () => {
    expect(redactUrl('/api/v1/invitations/Zx9_token-value/accept?lang=en')).toBe(
      '/api/v1/invitations/[redacted]/accept?lang=en',
    );
    expect(redactUrl('/invitations/Zx9_token-value')).toBe('/invitations/[redacted]');
    expect(redactUrl('/password_resets/abc123')).toBe('/password_resets/[redacted]');
    expect(redactUrl('/api/v1/mcp_oauth/callback?code=C0DE&state=ST4TE&iss=https%3A%2F%2Fas.example')).toBe(
      '/api/v1/mcp_oauth/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fas.example',
    );
    expect(
      redactUrl('/x?page=2&token=t0k&access_token=a&api_key=k&client_secret=s&code_verifier=v&per=10'),
    ).toBe(
      '/x?page=2&token=[redacted]&access_token=[redacted]&api_key=[redacted]&client_secret=[redacted]&code_verifier=[redacted]&per=10',
    );
    expect(redactUrl('/x?%74oken=t0k&flag')).toBe('/x?%74oken=[redacted]&flag');
    expect(redactUrl('/api/v1/workspaces/3/emails?per=5')).toBe('/api/v1/workspaces/3/emails?per=5');
  });
});

describe('errors in the log', () => {
  it('carry no query parameters, no quoted row or key, and no value quoted in a database message', () => {
    const cause = Object.assign(new Error('invalid input syntax for type integer: "s3cr3t-value"'), {
      severity: 'ERROR',
      code: '22P02',
      detail: 'Failing row contains (1, s3cr3t-value)',
      where: "unnamed portal parameter $1 = 's3cr3t-value'",
      constraint: 'feeds_name_check',
      table: 'feeds',
      query: 'insert into "feeds" ("name") values ($1)',
      params: ['s3cr3t-value'],
      queryOptions: { rowMode: 'object' },
    });
    // Drizzle's wrapper, as drizzle-orm 0.45 builds it.
    const wrapper = Object.assign(
      new Error('Failed query: insert into "feeds" ("name") values ($1)\nparams: s3cr3t-value'),
      { query: 'insert into "feeds" ("name") values ($1)', params: ['s3cr3t-value'], cause },
    );
    const logged = serializeError(wrapper);
    expect(JSON.stringify(logged)).not.toContain('s3cr3t');
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'Failed query: insert into "feeds" ("name") values ($1)',
      query: 'insert into "feeds" ("name") values ($1)',
      cause: {
        message: 'invalid input syntax for type integer: "[redacted]"',
        code: '22P02',
        constraint: 'feeds_name_check',
        table: 'feeds',
      },
    });
    expect(logged.stack).toMatch(/^Error: Failed query: .*\n\s+at /);
  });
});

describe('the log of a running app', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  const lines: string[] = [];
  const secretHeader = 'Bearer sk_live_never_in_a_log_5c1e';

  beforeAll(async () => {
    app = await buildTestApp({
      config: { logLevel: 'info', smtpUrl: undefined },
      logStream: { write: (line) => void lines.push(line) },
    });
    organization = await createTestOrganization(app);
    admin = await apiKeyHeadersFor(app, organization, organization.admin);
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  it('logs a failed feed write without its secret header (the SQL parameters and the failing row)', async () => {
    // A constraint the write breaks: the database refuses it, with the row in its detail.
    await app.services.database.db.execute(
      sql.raw(`alter table feeds add constraint refused_by_the_test check (name <> 'Refused by the test')`),
    );
    const linesBefore = lines.length;
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${organization.workspaceId}/feeds`,
      headers: admin,
      payload: {
        name: 'Refused by the test',
        url: 'https://feeds.example/products',
        request_method: 'GET',
        parameters: [],
        headers: [{ key: 'Authorization', value: secretHeader }],
        fields: [],
      },
    });
    expect(response.statusCode).toBe(500);
    const written = lines.slice(linesBefore).join('\n');
    // The failure is logged, with what it takes to find the cause...
    expect(written).toContain('unhandled error');
    expect(written).toContain('refused_by_the_test');
    // ...and nothing of the secret, in any form.
    expect(written).not.toContain('sk_live_never_in_a_log');
    expect(lines.join('\n')).not.toContain('sk_live_never_in_a_log');
  });

  it('logs an invitation’s URL without its token while the token is valid', async () => {
    const invited = await app.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: admin,
      payload: {
        first_name: 'Mary',
        last_name: 'Jackson',
        email: 'mary@example.com',
        role_id: organization.roleIds.Editor,
      },
    });
    expect(invited.statusCode).toBe(200);
    const outbox = app.services.config.outboxDir;
    const files = await readdir(outbox);
    const messages = await Promise.all(files.map((file) => readFile(path.join(outbox, file), 'utf8')));
    const token = messages.join('\n').match(/\/invitations\/([\w-]{43})/)?.[1] ?? '';
    expect(token).toHaveLength(43);

    const shown = await app.inject({ method: 'GET', url: `/api/v1/invitations/${token}` });
    expect(shown.statusCode).toBe(200);
    await app.inject({ method: 'GET', url: `/api/v1/mcp_oauth/callback?code=${token}&state=${token}` });
    await app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/1/feeds?token=${token}&access_token=${token}`,
    });

    const written = lines.join('\n');
    expect(written).toContain('/api/v1/invitations/[redacted]');
    expect(written).toContain('/api/v1/mcp_oauth/callback?code=[redacted]&state=[redacted]');
    expect(written).not.toContain(token);
  });
});
