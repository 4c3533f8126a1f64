import { Type } from 'typebox';
import { Id, IdParams, Name, RequestBody, ref, Text, Timestamp } from '../../http/schemas.ts';
import { SecretsCleared } from '../../security/secret-destination.ts';
import { integrationNames } from './connector-platforms.ts';

const IntegrationName = Type.Enum([...integrationNames], {
  description: 'The sending platform: iterable or salesforce_marketing_cloud',
});

export const SetupField = Type.Object(
  {
    name: Type.String({ description: 'The key of the value in `settings`' }),
    label: Type.String(),
    type: Type.Enum(['text', 'password', 'select']),
    required: Type.Boolean(),
    secret: Type.Boolean({
      description:
        'Stored encrypted and answered masked; a change that leaves it out or sends the mask keeps it',
    }),
    description: Type.Optional(Type.String()),
    options: Type.Optional(Type.Array(Type.Object({ value: Type.String(), label: Type.String() }))),
    pattern: Type.Optional(Type.String({ description: 'A regular expression the value must match' })),
    default: Type.Optional(Type.String()),
  },
  { $id: 'ConnectorSetupField' },
);

export const Connector = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    integration_name: IntegrationName,
    settings: Type.Record(Type.String(), Type.String(), {
      description:
        'The values of the setup fields; secret ones masked (•••• and at most the last 4 characters)',
    }),
    setup_fields: Type.Array(ref(SetupField)),
    oauth_authorization_url: Type.Union([Type.String(), Type.Null()], {
      description:
        'Salesforce Marketing Cloud with the authorization-code flow: where the browser goes to sign in to ' +
        'Marketing Cloud; its state is valid for 10 minutes and only in this organization, and completing the ' +
        'sign-in needs update_connectors. Null otherwise.',
    }),
    oauth_authorized_at: Type.Union([Timestamp, Type.Null()], {
      description: 'When a Marketing Cloud user last connected it through the authorization-code flow',
    }),
    secrets_cleared: SecretsCleared,
    workspace_id: Type.Integer(),
    organization_id: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Connector' },
);

const Settings = Type.Record(
  Type.String({ minLength: 1, maxLength: 100 }),
  Text({ description: 'A setting’s value (secret ones are write-only)' }),
  { maxProperties: 20, description: 'Values of the integration’s setup fields, by name' },
);

export const CreateConnectorBody = RequestBody({
  name: Name(),
  integration_name: IntegrationName,
  settings: Settings,
});

export const UpdateConnectorBody = RequestBody({
  name: Type.Optional(Name()),
  settings: Type.Optional(
    Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Text(), {
      maxProperties: 20,
      description:
        'Only the settings to change. A secret left out, or sent back masked, keeps its stored value, unless the ' +
        'change moves the connector to another address (Iterable’s region, Marketing Cloud’s subdomain): the stored ' +
        'secrets are then dropped unless given again, and secrets_cleared lists them. ' +
        'Changing the subdomain, client id, account id or sign-in of a Marketing Cloud connector forgets its sign-in.',
    }),
  ),
});

export const ConnectorParams = Type.Object({ workspace_id: Id(), ...IdParams.properties });

export const ConnectionTestResult = Type.Object(
  {
    ok: Type.Boolean(),
    message: Type.String({ description: 'What the platform said, in plain words' }),
  },
  { $id: 'ConnectionTestResult' },
);

export const ConnectorIntegration = Type.Object(
  {
    integration_name: IntegrationName,
    label: Type.String(),
    setup_fields: Type.Array(ref(SetupField)),
  },
  { $id: 'ConnectorIntegration' },
);

export const OAuthCallbackBody = RequestBody({
  code: Type.String({ minLength: 1, maxLength: 2000, description: 'The `code` Marketing Cloud sent back' }),
  state: Type.String({
    minLength: 1,
    maxLength: 2000,
    description: 'The `state` Marketing Cloud sent back, unchanged',
  }),
});
