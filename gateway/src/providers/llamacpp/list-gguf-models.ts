import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface GgufModelFile {
  /** The file name without `.gguf`: what a route's `upstream_model` names. */
  name: string;
  path: string;
  sizeBytes: number;
}

// Later parts of a split model load through their first part; projector files are not language models.
const NOT_A_MODEL = /(-0000[2-9]|-000[1-9]\d)-of-\d{5}\.gguf$|^mmproj/i;

/** The GGUF files directly in `modelsDir`, sorted by name; an empty list when the folder does not exist. */
export async function listGgufModels(modelsDir: string): Promise<GgufModelFile[]> {
  let entries;
  try {
    entries = await readdir(modelsDir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const models: GgufModelFile[] = [];
  for (const entry of entries) {
    if (
      !(entry.isFile() || entry.isSymbolicLink()) ||
      !entry.name.toLowerCase().endsWith('.gguf') ||
      NOT_A_MODEL.test(entry.name)
    )
      continue;
    const path = join(modelsDir, entry.name);
    // A link is a file used where it lies (the console's "use a file on this computer"); a broken one is skipped.
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) continue;
    models.push({ name: entry.name.slice(0, -'.gguf'.length), path, sizeBytes: info.size });
  }
  return models.sort((a, b) => a.name.localeCompare(b.name));
}
