/**
 * The resource of the gateway's telemetry by the standard variables: OTEL_RESOURCE_ATTRIBUTES
 * (`key=value,key2=value2`, percent-encoded), with OTEL_SERVICE_NAME over its `service.name`
 * (default `switchyard`). A list that cannot be decoded is ignored whole, as the specification asks,
 * with a warning in `warnings`.
 */
export function otelResourceAttributes(env: NodeJS.ProcessEnv, warnings: string[]): Record<string, string> {
  const attributes = parsedResourceAttributes(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  if (!attributes)
    warnings.push(
      'OTEL_RESOURCE_ATTRIBUTES is ignored: expected key=value pairs separated by commas, with "," "=" and "%" percent-encoded',
    );
  const resource = attributes ?? {};
  resource['service.name'] = env.OTEL_SERVICE_NAME?.trim() || resource['service.name'] || 'switchyard';
  return resource;
}

function parsedResourceAttributes(text: string): Record<string, string> | undefined {
  const attributes: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (!pair.trim()) continue;
    const at = pair.indexOf('=');
    if (at <= 0) return undefined;
    try {
      const key = decodeURIComponent(pair.slice(0, at).trim());
      if (!key) return undefined;
      attributes[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return attributes;
}
