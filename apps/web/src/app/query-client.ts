import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../shared/api-error.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx will answer the same again; only network trouble and 5xx are worth a retry.
        retry: (failureCount, error) =>
          failureCount < 2 && !(error instanceof ApiError && error.status < 500),
      },
    },
  });
}
