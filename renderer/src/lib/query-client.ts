import { QueryClient } from '@tanstack/react-query';
import { GatewayError } from './gateway-error';

/** Client errors (4xx) will not improve on retry; transient ones (network, 5xx) get two more tries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof GatewayError && error.status >= 400 && error.status < 500 && error.status !== 429) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 10_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
