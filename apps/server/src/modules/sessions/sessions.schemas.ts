import { Type } from 'typebox';
import { limits, RequestBody, Token } from '../../http/schemas.ts';
import { Email } from '../users/users.schemas.ts';

export const SignInBody = RequestBody({
  email: Email,
  password: Type.String({ minLength: 1, maxLength: limits.password }),
  two_factor_code: Type.Optional(
    Token({
      minLength: 0,
      maxLength: 8,
      description: 'Required when the account has two-factor authentication on',
    }),
  ),
});

export const SignInRefusal = Type.Object(
  {
    message: Type.String(),
    two_factor_required: Type.Optional(
      Type.Boolean({
        description: 'True when the password was right and the two-factor code is missing or wrong',
      }),
    ),
  },
  { $id: 'SignInRefusal' },
);
