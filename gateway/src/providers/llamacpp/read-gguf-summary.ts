import type { GgmlType, GgufTensorInfo } from 'node-llama-cpp';

export interface GgufSummary {
  architecture: string | null;
  /** The weights' quantization as llama.cpp names it (Q4_K_M, F16, ...). */
  quantization: string | null;
  contextLength: number | null;
  /** Embedding models (BERT-like encoders, or a pooling type) serve embeddings only; the rest chat and complete. */
  kind: 'embedding' | 'language';
}

const ENCODERS = /^(bert|nomic-bert|nomic-bert-moe|jina-bert-v2|jina-bert-v3|neo-bert|modern-bert|t5encoder)$/;

/** The weight type most matrices use, for files whose header does not name one. */
function dominantType(tensors: readonly GgufTensorInfo[], typeNames: Record<number, string>): string | null {
  const counts = new Map<GgmlType, number>();
  for (const tensor of tensors)
    if (tensor.dimensions.length > 1) counts.set(tensor.ggmlType, (counts.get(tensor.ggmlType) ?? 0) + 1);
  const [type] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  return type === undefined ? null : (typeNames[type] ?? null);
}

/** Reads a GGUF file's header (not its weights): architecture, quantization, context length, kind. */
export async function readGgufSummary(path: string): Promise<GgufSummary> {
  // Imported here, not at the top: node-llama-cpp costs about 40 MB of memory once loaded, and a
  // gateway that runs no local model never needs it.
  const { GgmlType, GgufFileType, readGgufFileInfo } = await import('node-llama-cpp');
  const info = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false, sourceType: 'filesystem' });
  const metadata = info.metadata as unknown as Record<string, Record<string, unknown> | undefined>;
  const architecture = typeof metadata.general?.architecture === 'string' ? metadata.general.architecture : null;
  const section = architecture ? metadata[architecture] : undefined;
  const fileType = metadata.general?.file_type;
  const quantization =
    typeof fileType === 'number' && GgufFileType[fileType]
      ? GgufFileType[fileType].replace(/^(MOSTLY|ALL)_/, '')
      : dominantType(info.tensorInfo ?? [], GgmlType);
  const contextLength = typeof section?.context_length === 'number' ? section.context_length : null;
  const pooling = section?.pooling_type;
  const isEncoder =
    (architecture !== null && ENCODERS.test(architecture)) ||
    (typeof pooling === 'number' && pooling > 0 && metadata.tokenizer?.chat_template === undefined);
  return { architecture, quantization, contextLength, kind: isEncoder ? 'embedding' : 'language' };
}
