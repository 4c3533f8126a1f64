import { and, eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { changesAnything } from '../../db/record-updates.ts';
import { connectors } from '../../db/schema.ts';
import { findWorkspaceRecord, pageOfWorkspaceRecords } from '../../db/workspace-records.ts';
import { ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import { PlatformError } from '../../integrations/platform-http.ts';
import { maskSecret, SecretsError } from '../../security/secrets.ts';
import type { Services } from '../../services.ts';
import {
  type ConnectorSecrets,
  clientFor,
  type IntegrationName,
  integrationLabels,
  integrationNames,
  readableConnectorSecrets,
  salesforceRedirectUri,
  sealConnectorSecrets,
  setupFieldsOf,
} from './connector-platforms.ts';
import type {
  ConnectionTestResult,
  Connector,
  CreateConnectorBody,
  OAuthCallbackBody,
  UpdateConnectorBody,
} from './connectors.schemas.ts';

type ConnectorRow = typeof connectors.$inferSelect;
type ConnectorResponse = Static<typeof Connector>;

/** Settings of Marketing Cloud that say whose account it is: changing one forgets the sign-in. */
const salesforceIdentitySettings = ['subdomain', 'client_id', 'account_id', 'auth_flow'];
/** How long a Connect link works. */
const oauthStateLifetimeMs = 10 * 60 * 1000;
const oauthStatePurpose = 'connector-oauth-state';

function oauthState(services: Pick<Services, 'secrets'>, row: ConnectorRow): string {
  return services.secrets.seal(
    JSON.stringify({
      connectorId: row.id,
      workspaceId: row.workspaceId,
      organizationId: row.organizationId,
      expiresAt: Date.now() + oauthStateLifetimeMs,
    }),
    oauthStatePurpose,
  );
}

function toResponse(services: Pick<Services, 'secrets' | 'config'>, row: ConnectorRow): ConnectorResponse {
  const integration = row.integrationName as IntegrationName;
  const fields = setupFieldsOf(integration, services.config.appUrl);
  const stored = readableConnectorSecrets(services.secrets, row);
  const settings: Record<string, string> = {};
  for (const field of fields) {
    const value = field.secret ? stored[field.name] : row.settings[field.name];
    if (value !== undefined) settings[field.name] = field.secret ? maskSecret(value) : value;
  }
  let oauthAuthorizationUrl: string | null = null;
  if (integration === 'salesforce_marketing_cloud' && row.settings.auth_flow === 'authorization_code') {
    // The sign-in page needs only the client id, which is not secret: the secrets stay sealed.
    const { client } = clientFor(
      { ...row, sealedSecrets: null },
      { secrets: services.secrets, endpoints: services.config.connectorEndpoints },
    );
    if ('authorizationUrl' in client)
      oauthAuthorizationUrl = client.authorizationUrl(
        salesforceRedirectUri(services.config.appUrl),
        oauthState(services, row),
      );
  }
  return {
    id: row.id,
    name: row.name,
    integration_name: integration,
    settings,
    setup_fields: fields,
    oauth_authorization_url: oauthAuthorizationUrl,
    oauth_authorized_at: row.authorizedAt,
    workspace_id: row.workspaceId,
    organization_id: row.organizationId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function listIntegrations(services: Pick<Services, 'config'>) {
  return integrationNames.map((integration) => ({
    integration_name: integration,
    label: integrationLabels[integration],
    setup_fields: setupFieldsOf(integration, services.config.appUrl),
  }));
}

export async function listConnectors(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  workspaceId: number,
  page: PageRequest,
) {
  const { rows, total } = await pageOfWorkspaceRecords(services, connectors, workspaceId, page);
  return listBody(
    rows.map((row) => toResponse(services, row)),
    total,
    page,
  );
}

export async function getConnector(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  workspaceId: number,
  id: number,
) {
  return toResponse(services, await findWorkspaceRecord(services, connectors, workspaceId, id));
}

/**
 * Checks the complete values of an integration's setup fields and splits them into what may be
 * shown and what is sealed. Every problem is reported at once, under `settings.<name>`.
 */
function checkSettings(
  integration: IntegrationName,
  values: Record<string, string>,
  appUrl: string,
  /** Secrets a move of the connector's address dropped: the connector is saved without them. */
  cleared: ReadonlySet<string> = new Set(),
): { settings: Record<string, string>; secrets: ConnectorSecrets } {
  const fields = setupFieldsOf(integration, appUrl);
  const errors: Record<string, string[]> = {};
  for (const key of Object.keys(values))
    if (!fields.some((field) => field.name === key))
      errors[`settings.${key}`] = [`is not a setting of ${integrationLabels[integration]}`];
  const settings: Record<string, string> = {};
  const secrets: ConnectorSecrets = {};
  for (const field of fields) {
    const value = (values[field.name] ?? field.default ?? '').trim();
    const problems: string[] = [];
    if (value === '') {
      if (field.required && !cleared.has(field.name)) problems.push('is required');
    } else if (field.options && !field.options.some((option) => option.value === value)) {
      problems.push(`must be one of ${field.options.map((option) => option.value).join(', ')}`);
    } else if (field.pattern && !new RegExp(field.pattern).test(value)) {
      problems.push(
        field.name === 'subdomain'
          ? 'must be the subdomain alone, e.g. mc563885gzs27c5t9-63k636tzgm (lower-case letters, digits and hyphens)'
          : field.name === 'account_id'
            ? 'must be the MID, digits only'
            : 'is not valid',
      );
    }
    if (problems.length > 0) errors[`settings.${field.name}`] = problems;
    else if (value !== '') (field.secret ? secrets : settings)[field.name] = value;
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { settings, secrets };
}

export async function createConnector(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateConnectorBody>,
) {
  const checked = checkSettings(input.integration_name, input.settings, services.config.appUrl);
  const [row] = await services.database.db
    .insert(connectors)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      name: input.name,
      integrationName: input.integration_name,
      settings: checked.settings,
      sealedSecrets: sealConnectorSecrets(services.secrets, checked.secrets),
    })
    .returning();
  if (!row) throw new Error('connector insert returned nothing');
  return toResponse(services, row);
}

/**
 * The settings that choose where a connector's credentials are sent: Iterable's data centre
 * (api.iterable.com or api.eu.iterable.com), Marketing Cloud's tenant subdomain (the host of its
 * authentication, REST and SOAP addresses).
 */
const destinationSettings: Record<IntegrationName, string> = {
  iterable: 'region',
  salesforce_marketing_cloud: 'subdomain',
};

export async function updateConnector(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateConnectorBody>,
) {
  const row = await findWorkspaceRecord(services, connectors, workspaceId, id);
  // An update of nothing writes nothing (resealing the secrets would still change the row).
  if (!changesAnything(input)) return { ...toResponse(services, row), secrets_cleared: [] };
  const integration = row.integrationName as IntegrationName;
  const stored = readableConnectorSecrets(services.secrets, row);
  const fields = setupFieldsOf(integration, services.config.appUrl);
  const destination = destinationSettings[integration];
  const destinationField = fields.find((field) => field.name === destination);
  const destinationOf = (settings: Record<string, string | undefined>) =>
    (settings[destination] ?? destinationField?.default ?? '').trim();
  const sent = input.settings ?? {};
  const keepsDestination =
    sent[destination] === undefined || destinationOf(sent) === destinationOf(row.settings);
  const merged: Record<string, string> = { ...row.settings };
  const cleared = new Set<string>();
  for (const field of fields)
    if (field.secret && stored[field.name] !== undefined) {
      // Entered for the old address: not sent to another unless this change gives it again.
      if (keepsDestination) merged[field.name] = stored[field.name] as string;
      else cleared.add(field.name);
    }
  for (const [key, value] of Object.entries(sent)) {
    const field = fields.find((candidate) => candidate.name === key);
    const previous = stored[key];
    // The form shows secrets masked and sends back what it shows: that keeps the stored value.
    if (field?.secret && previous !== undefined && (value === maskSecret(previous) || value === '')) continue;
    merged[key] = value;
    cleared.delete(key);
  }
  const checked = checkSettings(integration, merged, services.config.appUrl, cleared);
  const identityChanged = salesforceIdentitySettings.some(
    (key) =>
      integration === 'salesforce_marketing_cloud' &&
      (checked.settings[key] ?? '') !== (row.settings[key] ?? ''),
  );
  const keepsSignIn = stored.refresh_token !== undefined && !identityChanged && keepsDestination;
  const [updated] = await services.database.db
    .update(connectors)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      settings: checked.settings,
      sealedSecrets: sealConnectorSecrets(services.secrets, {
        ...checked.secrets,
        ...(keepsSignIn ? { refresh_token: stored.refresh_token as string } : {}),
      }),
      ...(keepsSignIn ? {} : { authorizedAt: null }),
    })
    .where(eq(connectors.id, id))
    .returning();
  if (!updated) throw new Error('connector update returned nothing');
  const secretsCleared = [...cleared].map((name) => `settings.${name}`);
  if (stored.refresh_token !== undefined && !keepsSignIn) secretsCleared.push('oauth_refresh_token');
  return { ...toResponse(services, updated), secrets_cleared: secretsCleared };
}

export async function deleteConnector(services: Pick<Services, 'database'>, workspaceId: number, id: number) {
  await findWorkspaceRecord(services, connectors, workspaceId, id);
  await services.database.db.delete(connectors).where(eq(connectors.id, id));
}

/** Stores the refresh token Marketing Cloud rotated to: the one it replaces no longer works. */
export async function storeRefreshToken(
  services: Pick<Services, 'database' | 'secrets'>,
  connectorId: number,
  refreshToken: string,
  authorizedAt?: Date,
): Promise<void> {
  const db = services.database.db;
  const [row] = await db.select().from(connectors).where(eq(connectors.id, connectorId));
  if (!row) return;
  const values = { ...readableConnectorSecrets(services.secrets, row), refresh_token: refreshToken };
  await db
    .update(connectors)
    .set({
      sealedSecrets: sealConnectorSecrets(services.secrets, values),
      ...(authorizedAt ? { authorizedAt } : {}),
    })
    .where(eq(connectors.id, connectorId));
}

/** Asks the platform whether the stored credentials work; the answer is in plain words either way. */
export async function testConnector(
  services: Pick<Services, 'database' | 'secrets' | 'config' | 'log'>,
  workspaceId: number,
  id: number,
): Promise<Static<typeof ConnectionTestResult>> {
  const row = await findWorkspaceRecord(services, connectors, workspaceId, id);
  try {
    const platform = clientFor(row, {
      secrets: services.secrets,
      endpoints: services.config.connectorEndpoints,
      onRefreshTokenRotated: (token) => storeRefreshToken(services, row.id, token),
    });
    await platform.client.checkCredentials();
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    services.log.info(
      { connectorId: row.id, integration: row.integrationName, status: error.status },
      'connector test failed',
    );
    return { ok: false, message: error.message };
  }
  const where =
    row.integrationName === 'iterable'
      ? `Iterable (${row.settings.region === 'eu' ? 'EU' : 'US'} data centre)`
      : `Marketing Cloud (${row.settings.subdomain}${row.settings.account_id ? `, MID ${row.settings.account_id}` : ''})`;
  return { ok: true, message: `Connected: ${where} accepted the credentials.` };
}

interface OAuthState {
  connectorId: number;
  workspaceId: number;
  organizationId: number;
  expiresAt: number;
}

/**
 * The end of Marketing Cloud's authorization-code flow: the browser came back with a code and our
 * state; the code is exchanged for the first refresh token, which is stored sealed.
 */
export async function completeOAuth(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  input: Static<typeof OAuthCallbackBody>,
) {
  const invalidLink = ValidationError.field(
    'state',
    'This sign-in link is not valid or has expired: click Connect on the connector again',
  );
  let state: OAuthState;
  try {
    state = JSON.parse(services.secrets.open(input.state, oauthStatePurpose)) as OAuthState;
  } catch (error) {
    if (error instanceof SecretsError || error instanceof SyntaxError) throw invalidLink;
    throw error;
  }
  if (state.expiresAt < Date.now() || state.organizationId !== principal.organizationId) throw invalidLink;
  const [row] = await services.database.db
    .select()
    .from(connectors)
    .where(
      and(
        eq(connectors.id, state.connectorId),
        eq(connectors.workspaceId, state.workspaceId),
        eq(connectors.organizationId, principal.organizationId),
      ),
    );
  if (row?.settings.auth_flow !== 'authorization_code') throw invalidLink;
  try {
    const platform = clientFor(row, {
      secrets: services.secrets,
      endpoints: services.config.connectorEndpoints,
    });
    if (platform.integration !== 'salesforce_marketing_cloud') throw invalidLink;
    const grant = await platform.client.exchangeCode(
      input.code,
      salesforceRedirectUri(services.config.appUrl),
    );
    if (!grant.refreshToken) throw new PlatformError('Marketing Cloud answered no refresh token');
    await storeRefreshToken(services, row.id, grant.refreshToken, new Date());
  } catch (error) {
    if (error instanceof PlatformError) throw ValidationError.field('code', error.message);
    throw error;
  }
  return getConnector(services, row.workspaceId, row.id);
}
