import { Type } from 'typebox';
import {
  Id,
  Identifier,
  IdParams,
  Label,
  Name,
  RequestBody,
  Text,
  Timestamp,
  Url,
} from '../../http/schemas.ts';
import { SecretsCleared } from '../../security/secret-destination.ts';

const VariableName = Identifier({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' });

const FeedParameter = Type.Object(
  { label: Label(), name: VariableName },
  {
    additionalProperties: false,
    description: 'A value the editor user types; the URL reads it as `parameters.NAME`',
  },
);

const FeedHeader = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 200, pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" }),
    value: Text({ maxLength: 4000 }),
  },
  { additionalProperties: false },
);

const FeedField = Type.Object(
  {
    key: VariableName,
    value: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'A JSON path into the answer',
      examples: ['$.product.name', 'images[0].url'],
    }),
  },
  { additionalProperties: false },
);

const RequestMethod = Type.Enum(['GET', 'POST']);

const FeedUrl = Url({
  minLength: 1,
  description:
    'Liquid over parameters, e.g. https://example.com/api/products/{{ parameters.product_id }}; every printed value ' +
    'is URL-encoded, and the scheme, host and port are written without Liquid',
});

export const Feed = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    url: Type.String(),
    request_method: RequestMethod,
    parameters: Type.Array(FeedParameter),
    headers: Type.Array(
      Type.Object({
        key: Type.String(),
        value: Type.String({ description: 'Masked: the first characters, then …' }),
      }),
    ),
    fields: Type.Array(FeedField),
    secrets_cleared: SecretsCleared,
    organization_id: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Feed' },
);

const Parameters = Type.Array(FeedParameter, { maxItems: 50 });
const Headers = Type.Array(FeedHeader, {
  maxItems: 50,
  description:
    'Sending back the masked value of a header keeps its stored value, unless the same change moves the URL to ' +
    'another scheme, host or port: stored values are then dropped (see secrets_cleared) and only values given ' +
    'anew are kept',
});
const Fields = Type.Array(FeedField, { maxItems: 100 });

export const CreateFeedBody = RequestBody({
  name: Name(),
  url: FeedUrl,
  request_method: RequestMethod,
  parameters: Parameters,
  headers: Headers,
  fields: Fields,
});

export const UpdateFeedBody = RequestBody({
  name: Type.Optional(Name()),
  url: Type.Optional(FeedUrl),
  request_method: Type.Optional(RequestMethod),
  parameters: Type.Optional(Parameters),
  headers: Type.Optional(Headers),
  fields: Type.Optional(Fields),
});

export const RunFeedBody = RequestBody({
  parameters: Type.Optional(Type.Record(Type.String(), Text(), { description: 'Parameter name → value' })),
});

export const FeedRunResult = Type.Object(
  {
    url: Type.Union([Type.String(), Type.Null()], { description: 'The URL requested' }),
    body: Type.Union([Type.String(), Type.Null()], { description: 'The answer as text' }),
    status: Type.Union([Type.Integer(), Type.Null()], { description: 'The answer’s HTTP status' }),
    error: Type.Union([Type.String(), Type.Null()]),
    extracted_data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Field key → the value at its JSON path (null when missing)',
    }),
  },
  { $id: 'FeedRunResult' },
);

export const FeedParams = Type.Object({ workspace_id: Id(), ...IdParams.properties });
