import { ProviderError } from '../_shared/provider-error.js';
import type { TranscriptionRequest, TranscriptionResult } from '../contracts/transcription.js';
import { MODEL_SAMPLE_RATE } from './build-recognizer-config.js';
import { buildSegments } from './build-segments.js';
import { readWav } from './read-wav.js';
import type { RecognizerCache } from './recognizer-cache.js';
import { resampleLinear } from './resample-linear.js';
import type { SpeechModelCatalog } from './speech-model-catalog.js';

function languageOf(lang: string | undefined): string | undefined {
  const code = lang?.replace(/^<\|/, '').replace(/\|>$/, '').trim();
  return code ? code : undefined;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ProviderError('aborted', 'the transcription request was cancelled');
}

/** Decodes a WAV request with the model it names: read, resample to the model's rate, decode, segment. */
export async function transcribeWav(
  request: TranscriptionRequest,
  catalog: SpeechModelCatalog,
  recognizers: RecognizerCache,
  maxDurationSeconds: number,
): Promise<TranscriptionResult> {
  throwIfAborted(request.signal);
  const audio = readWav(request.audio, { maxDurationSeconds });
  if (audio.samples.length === 0) {
    throw new ProviderError('invalid_input', 'the WAV file holds no audio samples', {
      code: 'invalid_audio',
      param: 'file',
    });
  }
  const samples = resampleLinear(audio.samples, audio.sampleRate, MODEL_SAMPLE_RATE);
  const model = await catalog.find(request.model);
  const recognizer = await recognizers.recognizerFor(model);
  throwIfAborted(request.signal);
  let result;
  try {
    result = await recognizers.decodeSerially(model, recognizer, samples);
  } catch (error) {
    throw new ProviderError(
      'upstream',
      `the local speech engine failed to decode the audio: ${(error as Error).message}`,
      {
        code: 'speech_engine_failed',
        cause: error,
      },
    );
  }
  throwIfAborted(request.signal);
  return {
    text: result.text.trim(),
    language: languageOf(result.lang) ?? request.language,
    duration: audio.duration,
    segments: buildSegments(result, audio.duration),
  };
}
