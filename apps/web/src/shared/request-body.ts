import type { paths } from '@letterset/api-client';

/** The JSON body an API operation takes, e.g. `RequestBody<'/api/v1/roles', 'post'>`. */
export type RequestBody<
  Path extends keyof paths,
  Method extends 'post' | 'put' | 'patch',
> = paths[Path] extends {
  [M in Method]: { requestBody?: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;
