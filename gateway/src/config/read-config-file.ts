import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { Value } from '@sinclair/typebox/value';
import { ConfigError } from './config-error.js';
import { ConfigFileSchema, type ConfigFile } from './config-schema.js';

/** Replaces `${NAME}` (and `${NAME:-default}`) in every string of the parsed document. */
export function expandEnvironment(value: unknown, env: NodeJS.ProcessEnv, file: string, path = ''): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback?: string) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      throw new ConfigError(`${file}: ${path || '(root)'}: environment variable ${name} is not set`);
    });
  }
  if (Array.isArray(value)) return value.map((item, index) => expandEnvironment(item, env, file, `${path}[${index}]`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        expandEnvironment(item, env, file, path ? `${path}.${key}` : key),
      ]),
    );
  }
  return value;
}

function parseDocument(text: string, file: string): unknown {
  try {
    return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(
      `${file}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    );
  }
}

function jsonPointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
}

export function validateConfig(document: unknown, file: string): ConfigFile {
  const root = document ?? {};
  const firstError = Value.Errors(ConfigFileSchema, root).First();
  if (firstError) {
    const field = jsonPointerToPath(firstError.path) || '(root)';
    const detail =
      firstError.schema && 'additionalProperties' in firstError.schema && firstError.message.includes('additional')
        ? `${firstError.message} (unknown key)`
        : firstError.message;
    throw new ConfigError(`${file}: ${field}: ${detail}`);
  }
  return root as ConfigFile;
}

export async function readConfigFile(file: string, env: NodeJS.ProcessEnv): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `${file}: cannot read the config file (GATEWAY_CONFIG): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return validateConfig(expandEnvironment(parseDocument(text, file), env, file), file);
}
