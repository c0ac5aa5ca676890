import { GatewayError } from '../lib/gateway-error';

interface Props {
  error: unknown;
  title?: string;
  onRetry?: () => void;
}

/** Shows the gateway's own `message`, with the status and code when there are any. */
export function ErrorNotice({ error, title = 'Something went wrong', onRetry }: Props) {
  const message = error instanceof Error ? error.message : String(error);
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
