/**
 * Writes a tiny random-weight llama model in GGUF v3 (F32, 2 layers, dim 64) that llama.cpp loads.
 * There are no real weights to fetch offline; this gives tests, benchmarks and e2e specs a model
 * that exercises the whole engine (tokenizer, chat template, sampling, grammars, embeddings).
 */
import { writeFile } from 'node:fs/promises';
import { seededRandom } from './seeded-random.js';

const EMBEDDING = 64;
const LAYERS = 2;
const HEADS = 4;
const FEED_FORWARD = 96;
const CONTEXT = 2048;
const ALIGNMENT = 32;

const CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

const WORDS = [
  'the',
  'and',
  'you',
  'that',
  'was',
  'for',
  'are',
  'with',
  'his',
  'they',
  'this',
  'have',
  'from',
  'one',
  'had',
  'word',
  'but',
  'not',
  'what',
  'all',
  'were',
  'when',
  'your',
  'can',
  'said',
  'there',
  'use',
  'each',
  'which',
  'she',
  'how',
  'their',
  'will',
  'other',
  'about',
  'out',
  'many',
  'then',
  'them',
  'these',
  'some',
  'her',
  'would',
  'make',
  'like',
  'him',
  'into',
  'time',
  'has',
  'look',
  'two',
  'more',
  'write',
  'see',
  'number',
  'way',
  'could',
  'people',
  'than',
  'first',
  'water',
  'been',
  'call',
  'who',
  'now',
  'find',
  'hello',
  'world',
  'model',
  'token',
  'true',
  'false',
  'null',
  'yes',
  'no',
  'ok',
];

interface Vocabulary {
  tokens: string[];
  scores: number[];
  types: number[];
}

/** Control tokens a FIM-trained model carries (appended last, so the other ids stay as they are). */
const FIM_TOKENS = ['<|fim_prefix|>', '<|fim_suffix|>', '<|fim_middle|>'];

function buildVocabulary(fim: boolean): Vocabulary {
  const tokens: string[] = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
  const types: number[] = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_BYTE);
  }
  const pieces = new Set<string>(['▁']);
  for (let code = 33; code < 127; code++) pieces.add(String.fromCharCode(code));
  for (const letter of 'abcdefghijklmnopqrstuvwxyz') pieces.add(`▁${letter}`);
  // Whole words make the output read like words; the tokenizer spells input with the single characters.
  for (const word of WORDS) {
    pieces.add(word);
    pieces.add(`▁${word}`);
  }
  const scores = tokens.map(() => 0);
  // SentencePiece merges prefer higher scores: longer pieces win over their parts.
  for (const piece of pieces) {
    tokens.push(piece);
    types.push(TOKEN_NORMAL);
    scores.push(piece.length - 10);
  }
  if (fim) {
    tokens.push(...FIM_TOKENS);
    types.push(...FIM_TOKENS.map(() => TOKEN_CONTROL));
    scores.push(...FIM_TOKENS.map(() => 0));
  }
  return { tokens, scores, types };
}

interface Tensor {
  name: string;
  /** GGML order: the first dimension is the innermost (row length). */
  dims: number[];
  data: Float32Array;
}

function buildTensors(vocabularySize: number, random: () => number): Tensor[] {
  const uniform = (dims: number[], scale: number): Tensor['data'] => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = (random() * 2 - 1) * scale;
    return data;
  };
  const ones = (size: number): Float32Array => new Float32Array(size).fill(1);
  const projection = 1 / Math.sqrt(EMBEDDING);
  // A separate output.weight: tied to the embeddings, greedy decoding just repeats the last token.
  const tensors: Tensor[] = [
    { name: 'token_embd.weight', dims: [EMBEDDING, vocabularySize], data: uniform([EMBEDDING, vocabularySize], 1) },
    { name: 'output_norm.weight', dims: [EMBEDDING], data: ones(EMBEDDING) },
    { name: 'output.weight', dims: [EMBEDDING, vocabularySize], data: uniform([EMBEDDING, vocabularySize], 0.5) },
  ];
  for (let layer = 0; layer < LAYERS; layer++) {
    const block = (name: string, dims: number[], scale: number): Tensor => ({
      name: `blk.${layer}.${name}.weight`,
      dims,
      data: uniform(dims, scale),
    });
    tensors.push(
      { name: `blk.${layer}.attn_norm.weight`, dims: [EMBEDDING], data: ones(EMBEDDING) },
      block('attn_q', [EMBEDDING, EMBEDDING], projection),
      block('attn_k', [EMBEDDING, EMBEDDING], projection),
      block('attn_v', [EMBEDDING, EMBEDDING], projection),
      block('attn_output', [EMBEDDING, EMBEDDING], projection),
      { name: `blk.${layer}.ffn_norm.weight`, dims: [EMBEDDING], data: ones(EMBEDDING) },
      block('ffn_gate', [EMBEDDING, FEED_FORWARD], projection),
      block('ffn_up', [EMBEDDING, FEED_FORWARD], projection),
      block('ffn_down', [FEED_FORWARD, EMBEDDING], 1 / Math.sqrt(FEED_FORWARD)),
    );
  }
  return tensors;
}

// GGUF metadata value types.
const GGUF_UINT32 = 4;
const GGUF_INT32 = 5;
const GGUF_FLOAT32 = 6;
const GGUF_STRING = 8;
const GGUF_ARRAY = 9;
const GGML_TYPE_F32 = 0;

type MetadataValue =
  | { type: 'u32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'string'; value: string }
  | { type: 'strings'; value: string[] }
  | { type: 'f32s'; value: number[] }
  | { type: 'i32s'; value: number[] };

/** Little-endian byte sink that grows as needed. */
class ByteWriter {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const next = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }
  u32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeUInt32LE(value, this.length);
  }
  i32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeInt32LE(value, this.length);
  }
  u64(value: number): void {
    this.reserve(8);
    this.length = this.buffer.writeBigUInt64LE(BigInt(value), this.length);
  }
  f32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeFloatLE(value, this.length);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.bytes(bytes);
  }
  bytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }
  padTo(alignment: number): void {
    const padding = (alignment - (this.length % alignment)) % alignment;
    this.bytes(new Uint8Array(padding));
  }
  result(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeMetadataValue(out: ByteWriter, entry: MetadataValue): void {
  switch (entry.type) {
    case 'u32':
      out.u32(GGUF_UINT32);
      out.u32(entry.value);
      return;
    case 'f32':
      out.u32(GGUF_FLOAT32);
      out.f32(entry.value);
      return;
    case 'string':
      out.u32(GGUF_STRING);
      out.string(entry.value);
      return;
    case 'strings':
      out.u32(GGUF_ARRAY);
      out.u32(GGUF_STRING);
      out.u64(entry.value.length);
      for (const item of entry.value) out.string(item);
      return;
    case 'f32s':
      out.u32(GGUF_ARRAY);
      out.u32(GGUF_FLOAT32);
      out.u64(entry.value.length);
      for (const item of entry.value) out.f32(item);
      return;
    case 'i32s':
      out.u32(GGUF_ARRAY);
      out.u32(GGUF_INT32);
      out.u64(entry.value.length);
      for (const item of entry.value) out.i32(item);
      return;
  }
}

/** `fim`: the vocabulary also has fill-in-the-middle tokens, so llama.cpp can infill with it. */
export async function writeTinyLlamaGguf(filePath: string, options?: { seed?: number; fim?: boolean }): Promise<void> {
  const vocabulary = buildVocabulary(options?.fim ?? false);
  const fimIds = (name: string) => vocabulary.tokens.indexOf(name);
  const tensors = buildTensors(vocabulary.tokens.length, seededRandom(options?.seed ?? 42));
  const metadata: [string, MetadataValue][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'tiny-random-llama' }],
    ['general.alignment', { type: 'u32', value: ALIGNMENT }],
    ['llama.context_length', { type: 'u32', value: CONTEXT }],
    ['llama.embedding_length', { type: 'u32', value: EMBEDDING }],
    ['llama.block_count', { type: 'u32', value: LAYERS }],
    ['llama.feed_forward_length', { type: 'u32', value: FEED_FORWARD }],
    ['llama.attention.head_count', { type: 'u32', value: HEADS }],
    ['llama.attention.head_count_kv', { type: 'u32', value: HEADS }],
    ['llama.rope.dimension_count', { type: 'u32', value: EMBEDDING / HEADS }],
    ['llama.rope.freq_base', { type: 'f32', value: 10000 }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.vocab_size', { type: 'u32', value: vocabulary.tokens.length }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'strings', value: vocabulary.tokens }],
    ['tokenizer.ggml.scores', { type: 'f32s', value: vocabulary.scores }],
    ['tokenizer.ggml.token_type', { type: 'i32s', value: vocabulary.types }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: 2 }],
    ['tokenizer.chat_template', { type: 'string', value: CHAT_TEMPLATE }],
    ...(options?.fim
      ? ([
          ['tokenizer.ggml.fim_pre_token_id', { type: 'u32', value: fimIds('<|fim_prefix|>') }],
          ['tokenizer.ggml.fim_suf_token_id', { type: 'u32', value: fimIds('<|fim_suffix|>') }],
          ['tokenizer.ggml.fim_mid_token_id', { type: 'u32', value: fimIds('<|fim_middle|>') }],
        ] as [string, MetadataValue][])
      : []),
  ];

  const out = new ByteWriter();
  out.bytes(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    writeMetadataValue(out, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_TYPE_F32);
    out.u64(offset);
    offset += Math.ceil(tensor.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  out.padTo(ALIGNMENT);
  for (const tensor of tensors) {
    out.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.padTo(ALIGNMENT);
  }
  await writeFile(filePath, out.result());
}
