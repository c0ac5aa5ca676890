import { ProviderError } from '../provider-error.js';

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error for an upstream answer that does not have the shape its API promises. */
export function malformedResponse(providerName: string, what: string): ProviderError {
  return new ProviderError('upstream', `${providerName} sent a malformed response: ${what}.`, {
    code: 'upstream_malformed_response',
  });
}

export function expectRecord(value: unknown, providerName: string, what: string): JsonRecord {
  if (!isRecord(value)) throw malformedResponse(providerName, `${what} is not an object`);
  return value;
}

export function expectArray(value: unknown, providerName: string, what: string): unknown[] {
  if (!Array.isArray(value)) throw malformedResponse(providerName, `${what} is not a list`);
  return value;
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function optionalNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
