import { GatewayError } from '../lib/gateway-error';

interface Props {
  error: unknown;
  title?: string;
  onRetry?: () => void;
}

/** Where the console offers what an API message tells a client to do with a raw call. */
const CONSOLE_REMEDIES: Record<string, string> = {
  key_limit_reached: "An Owner can raise this key's spending limit on the Keys page.",
  account_limit_reached: "An Owner can raise the account's spending limit on the Account page.",
  balance_exhausted: 'An Owner can top up the balance on the Account page.',
};

export function consoleMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const remedy = error instanceof GatewayError && error.code ? CONSOLE_REMEDIES[error.code] : undefined;
  return remedy ? `${message.replace(/\s*An Owner can .*$/, '')} ${remedy}` : message;
}

/** Shows the gateway's own `message` (with the console's way to fix it), the status and code when there are any. */
export function ErrorNotice({ error, title = 'Something went wrong', onRetry }: Props) {
  const message = consoleMessage(error);
  const detail =
    error instanceof GatewayError && error.status > 0
      ? `HTTP ${error.status}${error.code ? ` · ${error.code}` : ''}${error.param ? ` · ${error.param}` : ''}${
          error.retryAfterSeconds ? ` · retry after ${error.retryAfterSeconds} s` : ''
        }`
      : null;
  return (
    <div className="notice notice-error" role="alert">
      <span className="notice-title">{title}</span>
      <span>{message}</span>
      {detail && <span className="small muted mono">{detail}</span>}
      {onRetry && (
        <div>
          <button type="button" className="btn btn-sm" onClick={onRetry}>
            Try again
          </button>
        </div>
      )}
    </div>
  );
}
