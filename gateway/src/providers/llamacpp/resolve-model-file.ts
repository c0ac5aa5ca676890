import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { ProviderError } from '../_shared/provider-error.js';

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/**
 * Maps a request's model name to a GGUF file: an absolute path, or a file name in `modelsDir`
 * with or without `.gguf`. Names may not climb out of the folder.
 */
export function resolveModelFile(modelsDir: string, model: string): string {
  if (isAbsolute(model)) {
    if (isFile(model)) return model;
    throw notFound(`Model file ${model} does not exist.`);
  }
  const base = resolve(modelsDir, model);
  const inside = relative(modelsDir, base);
  if (model.length === 0 || inside.startsWith('..') || isAbsolute(inside)) {
    throw new ProviderError('invalid_request', `Model name "${model}" must be a file name inside ${modelsDir}.`, {
      param: 'model',
      code: 'model_file_not_found',
    });
  }
  for (const candidate of [base, `${base}.gguf`]) {
    if (isFile(candidate)) return candidate;
  }
  throw notFound(`No GGUF file named "${model}" or "${model}.gguf" in the models folder ${modelsDir}.`);
}

function notFound(message: string): ProviderError {
  return new ProviderError(
    'invalid_request',
    `${message} Copy the .gguf file there or point upstream_model at its absolute path.`,
    {
      param: 'model',
      code: 'model_file_not_found',
    },
  );
}
