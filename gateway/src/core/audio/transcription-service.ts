import { DEFAULT_TRANSCRIPTION_MODEL } from '../../wire/default-models.js';
import { sniffAudioFormat, wavDurationSeconds } from '../../media/audio/audio-format.js';
import type { TranscriptionResult } from '../../providers/contracts/transcription.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { GuardrailService } from '../guardrails/guardrail-service.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';
import type { OwnerScope } from '../../store/owner-scope.js';
import type { FileStore } from '../files/file-store.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import { audioSource, type AudioSourceFields } from './audio-source.js';

const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
const MAX_DURATION_SECONDS = 2 * 60 * 60;

export interface TranscriptionInput {
  model?: string;
  /** The uploaded audio; undefined when the client sent none. */
  upload: { content: Buffer; filename: string } | undefined;
  /** Instead of an upload: a stored file (`file_id`) or a URL (`file_url`). */
  source: AudioSourceFields;
  /** The asking key's scope: a stored file must be one it may read. */
  owner: OwnerScope;
  language?: string;
  prompt?: string;
  temperature?: number;
}

export interface Transcript {
  result: TranscriptionResult;
  route: ModelRoute;
  /** The length a WAV file declares, in seconds (other formats: unknown). */
  declaredSeconds: number | undefined;
}

/**
 * Speech to text on a transcription route: the upload checked (present, not empty, within size and
 * length, audio at all), the prompt passed through the route's and the key's input guardrails, then transcribed.
 */
export class TranscriptionService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly runner: RouteRunner,
    /** Where a `file_id` is read and which addresses a `file_url` may be fetched from. */
    private readonly sources: { files: Pick<FileStore, 'content'>; addresses: AddressPolicy },
    private readonly guardrails?: GuardrailService,
  ) {}

  async transcribe(input: TranscriptionInput, meter: UsageMeter, signal: AbortSignal): Promise<Transcript> {
    const file = await audioSource(input.upload, input.source, { ...this.sources, owner: input.owner });
    const route = this.models.resolveOrDefault(input.model, 'transcription', DEFAULT_TRANSCRIPTION_MODEL);
    if (!file)
      throw new GatewayError(422, 'invalid_value', "Invalid request: 'file' (the audio) is required.", {
        param: 'file',
      });
    const { content: audio, filename } = file;
    if (audio.length === 0) throw new GatewayError(422, 'empty_audio', 'The audio file is empty.', { param: 'file' });
    if (audio.length > MAX_AUDIO_BYTES)
      throw new GatewayError(
        413,
        'audio_too_large',
        `The audio file is larger than ${MAX_AUDIO_BYTES / 1024 / 1024} MB; split it into shorter parts.`,
        { param: 'file' },
      );
    const sniffed = sniffAudioFormat(audio);
    if (!sniffed)
      throw new GatewayError(
        422,
        'unsupported_audio_format',
        'The file is not audio this gateway recognises: send WAV, MP3, OGG, FLAC, M4A/MP4 or WebM.',
        { param: 'file' },
      );
    const declaredSeconds = wavDurationSeconds(audio);
    if (declaredSeconds !== undefined && declaredSeconds > MAX_DURATION_SECONDS) {
      throw new GatewayError(
        413,
        'audio_too_long',
        `The audio lasts ${Math.round(declaredSeconds)} s; the limit is ${MAX_DURATION_SECONDS} s.`,
        { param: 'file' },
      );
    }
    const guard = this.guardrails?.for(route, meter);
    const prompt = guard && input.prompt ? (await guard.texts('input', [input.prompt], signal))[0] : input.prompt;
    const { value: result, route: served } = await this.runner.invoke(
      route,
      'transcription',
      signal,
      (transcription, model, attemptSignal) =>
        transcription.transcribe({
          model,
          audio,
          filename,
          mimeType: sniffed.mimeType,
          language: input.language,
          prompt,
          temperature: input.temperature,
          signal: attemptSignal,
        }),
    );
    meter.charge(served, { prompt_tokens: 0, completion_tokens: 0 });
    return { result, route: served, declaredSeconds };
  }
}
