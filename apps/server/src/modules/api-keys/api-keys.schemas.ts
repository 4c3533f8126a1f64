import { Type } from 'typebox';
import { IdParams, Name, RequestBody, ref, Timestamp } from '../../http/schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

export const ApiKey = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    prefix: Type.String({
      description: 'The first characters of the key, to tell keys apart',
      examples: ['ls_4fT9'],
    }),
    creator: ref(UserReference),
    last_used_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
  },
  { $id: 'ApiKey', description: 'The key acts as its creator, with their current role' },
);

export const CreatedApiKey = Type.Object(
  {
    ...ApiKey.properties,
    key: Type.String({
      description: 'The secret. Shown this once: store it now; Letterset keeps only a digest',
    }),
  },
  { $id: 'CreatedApiKey' },
);

export const CreateApiKeyBody = RequestBody({
  name: Name({ examples: ['CI exports'] }),
});
export const ApiKeyParams = IdParams;
