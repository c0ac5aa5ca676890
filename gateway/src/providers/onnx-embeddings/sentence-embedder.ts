import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession } from 'onnxruntime-web';

export interface EmbedderFiles {
  dir: string;
  /** The ONNX graph inside `dir/onnx/`; its external data file, when any, is `<file>_data` beside it. */
  onnxFile: string;
  maxTokens: number;
}

export interface SentenceEmbedding {
  vector: Float32Array;
  tokens: number;
}

/**
 * A BERT-style sentence-embedding model (MiniLM, BGE, E5...) in ONNX, run by onnxruntime-web's
 * WebAssembly build: no native library, so no clash with the onnxruntime that sherpa-onnx loads
 * into the same process. Mean pooling over the attention mask, then L2 normalisation, as
 * sentence-transformers does for these models.
 */
export class SentenceEmbedder {
  private constructor(
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly ort: typeof import('onnxruntime-web'),
    readonly maxTokens: number,
  ) {}

  static async load(files: EmbedderFiles): Promise<SentenceEmbedder> {
    const ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    const [tokenizerJson, tokenizerConfig, graph] = await Promise.all([
      readFile(join(files.dir, 'tokenizer.json'), 'utf8'),
      readFile(join(files.dir, 'tokenizer_config.json'), 'utf8'),
      readFile(join(files.dir, 'onnx', files.onnxFile)),
    ]);
    const dataPath = join(files.dir, 'onnx', `${files.onnxFile}_data`);
    const data = await readFile(dataPath).catch(() => undefined);
    const session = await ort.InferenceSession.create(graph, {
      graphOptimizationLevel: 'all',
      ...(data ? { externalData: [{ path: basename(dataPath), data }] } : {}),
    });
    const tokenizer = new Tokenizer(JSON.parse(tokenizerJson) as object, JSON.parse(tokenizerConfig) as object);
    return new SentenceEmbedder(session, tokenizer, ort, files.maxTokens);
  }

  countTokens(text: string): number {
    return this.tokenizer.encode(text).ids.length;
  }

  async embed(text: string): Promise<SentenceEmbedding> {
    const { ids, attention_mask: mask } = this.tokenizer.encode(text);
    const length = ids.length;
    const tensor = (values: number[]) =>
      new this.ort.Tensor(
        'int64',
        BigInt64Array.from(values, (value) => BigInt(value)),
        [1, length],
      );
    const feeds: Record<string, InstanceType<typeof this.ort.Tensor>> = {
      input_ids: tensor(ids),
      attention_mask: tensor(mask),
    };
    if (this.session.inputNames.includes('token_type_ids'))
      feeds.token_type_ids = tensor(new Array<number>(length).fill(0));
    const output = (await this.session.run(feeds))[this.session.outputNames[0]];
    const hidden = output.data as Float32Array;
    const size = output.dims[2];
    const vector = new Float32Array(size);
    let counted = 0;
    for (let token = 0; token < length; token++) {
      if (mask[token] === 0) continue;
      counted++;
      for (let dim = 0; dim < size; dim++) vector[dim] += hidden[token * size + dim];
    }
    let norm = 0;
    for (let dim = 0; dim < size; dim++) {
      vector[dim] /= Math.max(counted, 1);
      norm += vector[dim] * vector[dim];
    }
    norm = Math.sqrt(norm) || 1;
    for (let dim = 0; dim < size; dim++) vector[dim] /= norm;
    return { vector, tokens: length };
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
