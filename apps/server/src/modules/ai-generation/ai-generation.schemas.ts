import { Type } from 'typebox';
import { Prompt, RequestBody } from '../../http/schemas.ts';

export const RetryEmailGenerationBody = RequestBody({
  prompt: Type.Optional(
    Prompt({
      description: 'An edited brief, kept for the email; without it the email’s own brief is used again',
    }),
  ),
});
