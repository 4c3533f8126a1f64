import type { ConnectorEndpoints } from '../../config.ts';
import type { connectors } from '../../db/schema.ts';
import { IterableClient, type IterableRegion } from '../../integrations/iterable.ts';
import {
  createPlatformHttp,
  PlatformError,
  type PlatformHttpOptions,
} from '../../integrations/platform-http.ts';
import {
  type SalesforceAuthFlow,
  SalesforceMarketingCloudClient,
  subdomainPattern,
} from '../../integrations/salesforce-marketing-cloud.ts';
import { type Secrets, SecretsError } from '../../security/secrets.ts';

/**
 * The sending platforms a connector can reach, what each asks for (`setup_fields`, which the web
 * app builds its form from), and how a stored connector becomes a client of its platform.
 */
export const integrationNames = ['iterable', 'salesforce_marketing_cloud'] as const;
export type IntegrationName = (typeof integrationNames)[number];

export interface SetupField {
  name: string;
  label: string;
  type: 'text' | 'password' | 'select';
  required: boolean;
  /** Stored encrypted, answered masked, and kept when a change leaves it out or sends the mask. */
  secret: boolean;
  description?: string;
  options?: { value: string; label: string }[];
  /** Letters, digits and what else the value may hold, as a regular expression. */
  pattern?: string;
  default?: string;
}

export const integrationLabels: Record<IntegrationName, string> = {
  iterable: 'Iterable',
  salesforce_marketing_cloud: 'Salesforce Marketing Cloud',
};

/** Where Marketing Cloud sends the browser back after the user signs in (registered on the package). */
export function salesforceRedirectUri(appUrl: string): string {
  return `${appUrl}/connectors/oauth-callback`;
}

export function setupFieldsOf(integration: IntegrationName, appUrl: string): SetupField[] {
  if (integration === 'iterable')
    return [
      {
        name: 'api_key',
        label: 'API key',
        type: 'password',
        required: true,
        secret: true,
        description: 'A server-side API key of the Iterable project (Integrations → API keys).',
      },
      {
        name: 'region',
        label: 'Data centre',
        type: 'select',
        required: true,
        secret: false,
        default: 'us',
        options: [
          { value: 'us', label: 'US (api.iterable.com)' },
          { value: 'eu', label: 'EU (api.eu.iterable.com)' },
        ],
        description: 'Where the project lives: a key works only in its own data centre.',
      },
    ];
  return [
    {
      name: 'subdomain',
      label: 'Tenant subdomain',
      type: 'text',
      required: true,
      secret: false,
      pattern: subdomainPattern,
      description:
        'The start of your authentication base URI: for https://mc563885gzs27c5t9-63k636tzgm.auth.marketingcloudapis.com/ enter mc563885gzs27c5t9-63k636tzgm.',
    },
    {
      name: 'client_id',
      label: 'Client id',
      type: 'text',
      required: true,
      secret: false,
      description: 'From the installed package’s API integration component.',
    },
    {
      name: 'client_secret',
      label: 'Client secret',
      type: 'password',
      required: true,
      secret: true,
    },
    {
      name: 'account_id',
      label: 'Account id (MID)',
      type: 'text',
      required: false,
      secret: false,
      pattern: '^[0-9]{1,18}$',
      description: 'The business unit to write to; empty: the unit that owns the package.',
    },
    {
      name: 'auth_flow',
      label: 'Sign-in',
      type: 'select',
      required: true,
      secret: false,
      default: 'client_credentials',
      options: [
        { value: 'client_credentials', label: 'Server-to-server (client credentials)' },
        { value: 'authorization_code', label: 'A Marketing Cloud user signs in (web app integration)' },
      ],
      description: `Server-to-server needs an API integration of type Server-to-Server. A web app integration needs this redirect URI registered on it: ${salesforceRedirectUri(appUrl)}`,
    },
  ];
}

/** Values of the secret fields, plus the refresh token the authorization-code flow stores. */
export type ConnectorSecrets = Record<string, string>;

type ConnectorRow = typeof connectors.$inferSelect;

/** Sealed for this purpose only: a sealed value copied elsewhere does not open. */
const secretsPurpose = 'connector-secrets';

export function sealConnectorSecrets(secrets: Secrets, values: ConnectorSecrets): string {
  return secrets.seal(JSON.stringify(values), secretsPurpose);
}

export function openConnectorSecrets(
  secrets: Secrets,
  row: Pick<ConnectorRow, 'sealedSecrets'>,
): ConnectorSecrets {
  return row.sealedSecrets
    ? (JSON.parse(secrets.open(row.sealedSecrets, secretsPurpose)) as ConnectorSecrets)
    : {};
}

/**
 * The secrets for showing and changing a connector: none when they cannot be opened (the server's
 * secrets key changed), so the connector still shows and its secrets can be entered again.
 */
export function readableConnectorSecrets(
  secrets: Secrets,
  row: Pick<ConnectorRow, 'sealedSecrets'>,
): ConnectorSecrets {
  try {
    return openConnectorSecrets(secrets, row);
  } catch (error) {
    if (error instanceof SecretsError) return {};
    throw error;
  }
}

export interface ConnectorClientContext {
  secrets: Secrets;
  endpoints: ConnectorEndpoints;
  http?: Omit<PlatformHttpOptions, 'endpoints'>;
  /** Stores a rotated refresh token (authorization-code flow). */
  onRefreshTokenRotated?: (refreshToken: string) => Promise<void>;
}

export type ConnectorClient =
  | { integration: 'iterable'; client: IterableClient }
  | { integration: 'salesforce_marketing_cloud'; client: SalesforceMarketingCloudClient };

/** The platform's client; a PlatformError when the stored secrets cannot be opened. */
export function clientFor(row: ConnectorRow, context: ConnectorClientContext): ConnectorClient {
  let values: ConnectorSecrets;
  try {
    values = openConnectorSecrets(context.secrets, row);
  } catch (error) {
    if (!(error instanceof SecretsError)) throw error;
    throw new PlatformError(
      'The connector’s stored credentials cannot be read with this server’s secrets key (was SECRETS_KEY changed?): enter them again.',
      { scope: 'account' },
    );
  }
  // A move to another data centre or subdomain drops the secrets not entered again: nothing is sent
  // then. (A row without sealed secrets at all only builds the sign-in page, which needs none.)
  const integration = row.integrationName as IntegrationName;
  const missing = setupFieldsOf(integration, '').find(
    (field) => field.secret && field.required && !values[field.name],
  );
  if (missing && row.sealedSecrets !== null)
    throw new PlatformError(
      `The connector has no ${missing.label.toLowerCase()}: it was removed when the connector moved to another ${integration === 'iterable' ? 'data centre' : 'subdomain'}. Enter it again.`,
      { scope: 'account' },
    );
  const http = createPlatformHttp({ ...context.http, endpoints: context.endpoints });
  if (row.integrationName === 'iterable')
    return {
      integration: 'iterable',
      client: new IterableClient(
        { apiKey: values.api_key ?? '', region: (row.settings.region ?? 'us') as IterableRegion },
        http,
        context.endpoints,
      ),
    };
  return {
    integration: 'salesforce_marketing_cloud',
    client: new SalesforceMarketingCloudClient(
      {
        subdomain: row.settings.subdomain ?? '',
        clientId: row.settings.client_id ?? '',
        clientSecret: values.client_secret ?? '',
        ...(row.settings.account_id ? { accountId: row.settings.account_id } : {}),
        authFlow: (row.settings.auth_flow ?? 'client_credentials') as SalesforceAuthFlow,
        ...(values.refresh_token ? { refreshToken: values.refresh_token } : {}),
      },
      http,
      context.endpoints,
      context.onRefreshTokenRotated,
    ),
  };
}
