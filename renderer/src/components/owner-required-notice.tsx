import { GatewayError } from '../lib/gateway-error';
import { EmptyState } from './empty-state';

export const isForbidden = (error: unknown): boolean => error instanceof GatewayError && error.status === 403;

/** What a Member sees on an Owner-only page: why, and what to do about it. */
export function OwnerRequiredNotice({ what, error }: { what: string; error?: unknown }) {
  return (
    <div className="card" data-testid="owner-required">
      <EmptyState icon="⚷" title="Owner role required">
        <span className="small">
          {what} is for keys with the Owner role. Sign in with an Owner key, or ask an Owner to do this for you.
        </span>
        {error instanceof Error && <span className="small faint">{error.message}</span>}
      </EmptyState>
    </div>
  );
}
