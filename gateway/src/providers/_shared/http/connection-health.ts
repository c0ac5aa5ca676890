import type { EngineStatus } from '../../types.js';
import type { ProviderError } from '../provider-error.js';
import { CONNECT_TIMEOUT_CODE } from './provider-error-from-failure.js';

/**
 * Turns a run of failed connections into `unavailable`, so /status shows a dead upstream before
 * a user's request finds it. Any answer from the upstream (even an error status) resets it.
 */
export class ConnectionHealth {
  private consecutiveFailures = 0;
  private lastFailure = '';

  constructor(private readonly threshold = 3) {}

  succeeded(): void {
    this.consecutiveFailures = 0;
  }

  failed(error: ProviderError): void {
    if (error.kind !== 'connection' && error.code !== CONNECT_TIMEOUT_CODE) return;
    this.consecutiveFailures++;
    this.lastFailure = error.message;
  }

  status(): EngineStatus {
    if (this.consecutiveFailures < this.threshold) return { state: 'ready' };
    return { state: 'unavailable', detail: `${this.consecutiveFailures} connection attempts failed in a row; last: ${this.lastFailure}` };
  }
}
