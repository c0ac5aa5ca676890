import { createRequire } from 'node:module';

/** The part of sherpa-onnx-node's offline recognizer config this provider builds (the package ships no types). */
export interface OfflineRecognizerConfig {
  featConfig: { sampleRate: number; featureDim: number };
  modelConfig: {
    tokens: string;
    numThreads: number;
    provider: 'cpu';
    debug: 0 | 1;
    whisper?: { encoder: string; decoder: string; language?: string; task?: string };
    transducer?: { encoder: string; decoder: string; joiner: string };
    paraformer?: { model: string };
    senseVoice?: { model: string; language?: string; useInverseTextNormalization?: number };
  };
  decodingMethod?: 'greedy_search';
}

export interface OfflineRecognizerResult {
  text: string;
  lang?: string;
  /** Seconds from the start of the audio, one per token; empty for models without timestamps. */
  timestamps?: number[];
  durations?: number[];
  tokens?: string[];
}

export interface OfflineStream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
}

export interface OfflineRecognizer {
  createStream(): OfflineStream;
  decodeAsync(stream: OfflineStream): Promise<OfflineRecognizerResult>;
}

export interface SherpaOnnxModule {
  OfflineRecognizer: { createAsync(config: OfflineRecognizerConfig): Promise<OfflineRecognizer> };
}

const require = createRequire(import.meta.url);

/** The path a child process can `require` to load the same package. */
export function sherpaOnnxModulePath(): string {
  return require.resolve('sherpa-onnx-node');
}

/** Loads the native addon on first use, so a missing binary makes the engine unavailable instead of failing the import. */
export function loadSherpaOnnx(): SherpaOnnxModule {
  return require('sherpa-onnx-node') as SherpaOnnxModule;
}
