/**
 * The contract between core and the backends. Core speaks only these interfaces; each provider
 * folder implements the capabilities its backend has. The capability set is closed.
 */

export const CAPABILITIES = [
  'chat',
  'completions',
  'embeddings',
  'ocr',
  'documents',
  'vision',
  'image_generation',
  'transcription',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

// ---------- chat and completions ----------

export interface TextPart {
  type: 'text';
  text: string;
}
export interface ImageUrlPart {
  type: 'image_url';
  image_url: { url: string; detail?: string };
}
export type ContentPart = TextPart | ImageUrlPart;

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export type ToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | 'any'
  | { type: 'function'; function: { name: string } };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name?: string; schema: Record<string, unknown>; strict?: boolean } };

/** Sampling parameters shared by chat and text completions. */
export interface SamplingParams {
  /** The model name the backend knows (route's upstream_model, or the model id). */
  model: string;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  seed?: number;
  /** Number of choices; providers that cannot do n > 1 natively loop. */
  n?: number;
  signal: AbortSignal;
}

export interface ChatRequest extends SamplingParams {
  messages: ChatMessage[];
  response_format?: ResponseFormat;
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface ChatChoice {
  index: number;
  message: { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] };
  finish_reason: FinishReason;
}

export interface ChatResult {
  choices: ChatChoice[];
  usage: TokenUsage;
}

/** Streamed chat events; `index` is the choice index. Usage comes once, at the end. */
export type ChatStreamEvent =
  | { type: 'delta'; index: number; content?: string; role?: 'assistant'; tool_calls?: ToolCallDelta[] }
  | { type: 'finish'; index: number; finish_reason: FinishReason }
  | { type: 'usage'; usage: TokenUsage };

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChatProvider {
  chat(request: ChatRequest): Promise<ChatResult>;
  /** Resolves (or throws a ProviderError) before the first event, so failures before the first byte can be retried. */
  chatStream(request: ChatRequest): Promise<AsyncIterable<ChatStreamEvent>>;
}

export interface CompletionRequest extends SamplingParams {
  prompt: string;
  /** Fill in the middle: the text after the gap (only providers with `fillInTheMiddle` read it). */
  suffix?: string;
}

export interface CompletionResult {
  choices: { index: number; text: string; finish_reason: FinishReason }[];
  usage: TokenUsage;
}

export type CompletionStreamEvent =
  | { type: 'delta'; index: number; text: string }
  | { type: 'finish'; index: number; finish_reason: FinishReason }
  | { type: 'usage'; usage: TokenUsage };

export interface CompletionProvider {
  /** True when the backend fills the gap between `prompt` and `suffix` (Mistral's FIM endpoint). */
  fillInTheMiddle?: boolean;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  completeStream(request: CompletionRequest): Promise<AsyncIterable<CompletionStreamEvent>>;
}

// ---------- embeddings ----------

export interface EmbeddingRequest {
  model: string;
  input: string[];
  dimensions?: number;
  signal: AbortSignal;
}

export interface EmbeddingResult {
  vectors: number[][];
  prompt_tokens: number;
}

export interface EmbeddingProvider {
  embed(request: EmbeddingRequest): Promise<EmbeddingResult>;
}

// ---------- OCR ----------

/** [x1, y1, x2, y2] in pixels of the page image, top-left origin, x2/y2 exclusive. */
export type BoxCoordinates = [number, number, number, number];

export interface OcrWord {
  text: string;
  bbox: BoxCoordinates;
  /** 0..1 */
  confidence: number;
}
export interface OcrLine extends OcrWord {
  words: OcrWord[];
}
/** What a block is on the page, where the layout says so: a running header or footer, or a table read row by row. */
export type OcrBlockKind = 'header' | 'footer' | 'table';
export interface OcrBlock extends OcrWord {
  lines: OcrLine[];
  /** Absent for body text (paragraphs, captions, list items). */
  kind?: OcrBlockKind;
}

export interface OcrPage {
  /** 0-based page index in the document. */
  index: number;
  width: number;
  height: number;
  text: string;
  blocks: OcrBlock[];
  /** 'text_layer' when a PDF page's own text was used, 'ocr' when it was recognised. */
  source: 'ocr' | 'text_layer';
  /** 0..1: the recogniser's mean word confidence (weighted by length); 1 for a text layer, 0 for a page with no text. */
  confidence?: number;
}

export interface OcrRequest {
  model: string;
  document: Buffer;
  /** Sniffed from the bytes by the caller: image/png, image/jpeg, application/pdf, ... */
  mimeType: string;
  /** 0-based page indices to process; all pages when absent. */
  pages?: number[];
  signal: AbortSignal;
}

export interface OcrResult {
  pages: OcrPage[];
}

export interface OcrProvider {
  ocr(request: OcrRequest): Promise<OcrResult>;
}

// ---------- images ----------

export interface ImageGenerationRequest {
  model: string;
  prompt: string;
  /** `<width>x<height>` */
  size: string;
  n: number;
  signal: AbortSignal;
}

export interface GeneratedImage {
  data: Buffer;
  mimeType: string;
  revised_prompt?: string;
}

export interface ImageGenerationProvider {
  generate(request: ImageGenerationRequest): Promise<GeneratedImage[]>;
}

// ---------- transcription ----------

export interface TranscriptionRequest {
  model: string;
  audio: Buffer;
  filename: string;
  mimeType: string;
  language?: string;
  prompt?: string;
  temperature?: number;
  signal: AbortSignal;
}

export interface TranscriptSegment {
  id: number;
  start: number;
  end: number;
  text: string;
}

export interface TranscriptionResult {
  text: string;
  language?: string;
  /** seconds */
  duration?: number;
  segments: TranscriptSegment[];
}

export interface TranscriptionProvider {
  transcribe(request: TranscriptionRequest): Promise<TranscriptionResult>;
}

// ---------- Responses API (upstreams that speak it natively) ----------

/** One event of an upstream Responses stream, parsed: `type` names it. */
export type ResponsesUpstreamEvent = { type: string } & Record<string, unknown>;

/** Passes a Responses API request through to an upstream that speaks it (provider option `responses_api: true`). */
export interface ResponsesProvider {
  create(body: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** Resolves before the first event, like chatStream. */
  createStream(body: Record<string, unknown>, signal: AbortSignal): Promise<AsyncIterable<ResponsesUpstreamEvent>>;
}

// ---------- the provider instance ----------

/** What a provider kind offers; core looks a capability up here. Vision and documents are served through chat/ocr. */
export interface ProviderCapabilities {
  chat?: ChatProvider;
  completions?: CompletionProvider;
  embeddings?: EmbeddingProvider;
  ocr?: OcrProvider;
  image_generation?: ImageGenerationProvider;
  transcription?: TranscriptionProvider;
  /** Native Responses API, when configured; otherwise core translates Responses to chat. */
  responses?: ResponsesProvider;
}

/**
 * Engine state, for /status and the warm-up gate: `cold` means not loaded (the next call loads it),
 * `loading` means a load is under way, `ready` is warm, `unavailable` means it cannot serve (see `detail`).
 */
export type EngineState = 'cold' | 'loading' | 'ready' | 'unavailable';

export interface EngineStatus {
  state: EngineState;
  detail?: string;
}

/** Requests waiting for and running on a local engine's queue (a llama.cpp model, the OCR workers). */
export interface QueueDepth {
  queue: string;
  waiting: number;
  running: number;
}

export interface ProviderInstance {
  id: string;
  type: string;
  capabilities: ProviderCapabilities;
  /** Starts loading what should be warm at start (OCR workers); resolves when ready. */
  warm?(): Promise<void>;
  status(): EngineStatus;
  /** Per upstream model name, for engines that load models individually. */
  modelStatus?(model: string): EngineStatus;
  /** Local engines: their queues right now, for /metrics. */
  queues?(): QueueDepth[];
  /** Unloads one model (its file is about to be deleted); requests running on it fail. */
  releaseModel?(model: string): Promise<void>;
  close(): Promise<void>;
}

export interface ProviderLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Everything a provider factory gets. `options` is the provider's entry from the config file. */
export interface ProviderContext {
  id: string;
  options: ProviderOptions;
  dataDir: string;
  logger: ProviderLogger;
}

export interface ProviderOptions {
  type: string;
  base_url?: string;
  api_key?: string;
  /** Milliseconds. */
  timeouts?: { connect?: number; first_byte?: number; idle?: number };
  /** Free-form, provider-specific settings (threads, pool size, idle unload, model files...). */
  [key: string]: unknown;
}

export type ProviderFactory = (context: ProviderContext) => ProviderInstance;
