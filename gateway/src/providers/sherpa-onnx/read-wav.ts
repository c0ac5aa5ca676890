import { ProviderError } from '../_shared/provider-error.js';

export interface WavAudio {
  sampleRate: number;
  /** Channels in the file; `samples` is already mixed down to mono. */
  channels: number;
  /** Mono samples in [-1, 1]. */
  samples: Float32Array;
  /** seconds */
  duration: number;
}

export interface ReadWavOptions {
  /** Reject before decoding when the header says the audio is longer than this (seconds). */
  maxDurationSeconds?: number;
}

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_IEEE_FLOAT = 0x0003;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

export const UNSUPPORTED_AUDIO_MESSAGE =
  'the local speech engine accepts WAV (PCM 16-bit or 32-bit float); send MP3/OGG/FLAC/M4A to an upstream transcription route';

function unsupportedFormat(): ProviderError {
  return new ProviderError('invalid_input', UNSUPPORTED_AUDIO_MESSAGE, {
    code: 'unsupported_audio_format',
    param: 'file',
  });
}

function invalidWav(message: string): ProviderError {
  return new ProviderError('invalid_input', message, { code: 'invalid_audio', param: 'file' });
}

export function isWav(bytes: Buffer): boolean {
  return bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE';
}

interface WavFormat {
  encoding: 'pcm' | 'float';
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
}

function parseFormat(chunk: Buffer): WavFormat {
  if (chunk.length < 16) throw invalidWav('the WAV file has a truncated "fmt " chunk');
  let formatTag = chunk.readUInt16LE(0);
  const channels = chunk.readUInt16LE(2);
  const sampleRate = chunk.readUInt32LE(4);
  const blockAlign = chunk.readUInt16LE(12);
  const bitsPerSample = chunk.readUInt16LE(14);
  // WAVE_FORMAT_EXTENSIBLE keeps the real format tag in the first two bytes of the sub-format GUID.
  if (formatTag === WAVE_FORMAT_EXTENSIBLE && chunk.length >= 26) formatTag = chunk.readUInt16LE(24);
  if (channels === 0 || sampleRate === 0 || blockAlign === 0)
    throw invalidWav('the WAV header declares zero channels, sample rate or block size');

  if (formatTag === WAVE_FORMAT_PCM) {
    if (bitsPerSample === 8) {
      throw new ProviderError(
        'invalid_input',
        'the local speech engine does not read 8-bit WAV; convert it to 16-bit PCM (for example `ffmpeg -i in.wav -acodec pcm_s16le out.wav`)',
        { code: 'unsupported_audio_format', param: 'file' },
      );
    }
    if (bitsPerSample !== 16 && bitsPerSample !== 24 && bitsPerSample !== 32) {
      throw invalidWav(
        `the WAV file uses ${bitsPerSample}-bit PCM; the local speech engine reads 16, 24 or 32-bit PCM`,
      );
    }
    return { encoding: 'pcm', channels, sampleRate, bitsPerSample, blockAlign };
  }
  if (formatTag === WAVE_FORMAT_IEEE_FLOAT) {
    if (bitsPerSample !== 32 && bitsPerSample !== 64)
      throw invalidWav(`the WAV file uses ${bitsPerSample}-bit float; expected 32 or 64`);
    return { encoding: 'float', channels, sampleRate, bitsPerSample, blockAlign };
  }
  throw new ProviderError(
    'invalid_input',
    `the WAV file is compressed (format tag 0x${formatTag.toString(16)}); ${UNSUPPORTED_AUDIO_MESSAGE}`,
    { code: 'unsupported_audio_format', param: 'file' },
  );
}

function sampleReader(format: WavFormat, bytes: Buffer): (offset: number) => number {
  if (format.encoding === 'float') {
    return format.bitsPerSample === 32 ? (o) => bytes.readFloatLE(o) : (o) => bytes.readDoubleLE(o);
  }
  switch (format.bitsPerSample) {
    case 16:
      return (o) => bytes.readInt16LE(o) / 32768;
    case 24:
      return (o) => bytes.readIntLE(o, 3) / 8388608;
    default:
      return (o) => bytes.readInt32LE(o) / 2147483648;
  }
}

/** Decodes a RIFF/WAVE buffer to mono float samples at the file's own sample rate. */
export function readWav(bytes: Buffer, options: ReadWavOptions = {}): WavAudio {
  if (!isWav(bytes)) throw unsupportedFormat();

  let format: WavFormat | undefined;
  let data: Buffer | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length && data === undefined) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const declared = bytes.readUInt32LE(offset + 4);
    const start = offset + 8;
    // Streamed recorders write 0 or 0xFFFFFFFF as the data size; take what is there.
    const end = Math.min(bytes.length, declared === 0 && id === 'data' ? bytes.length : start + declared);
    if (id === 'fmt ') format = parseFormat(bytes.subarray(start, end));
    else if (id === 'data') data = bytes.subarray(start, end);
    offset = start + declared + (declared % 2);
  }
  if (!format) throw invalidWav('the WAV file has no "fmt " chunk');
  if (!data) throw invalidWav('the WAV file has no "data" chunk');

  const bytesPerSample = format.bitsPerSample / 8;
  if (format.blockAlign < bytesPerSample * format.channels)
    throw invalidWav('the WAV header declares a block size smaller than one frame');
  const frames = Math.floor(data.length / format.blockAlign);
  const duration = frames / format.sampleRate;
  if (options.maxDurationSeconds !== undefined && duration > options.maxDurationSeconds) {
    throw new ProviderError(
      'too_large',
      `the audio is ${duration.toFixed(1)} s long; the local speech engine accepts at most ${options.maxDurationSeconds} s (option max_duration_seconds)`,
      { code: 'audio_too_long', param: 'file' },
    );
  }

  const read = sampleReader(format, data);
  const samples = new Float32Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    let sum = 0;
    const base = frame * format.blockAlign;
    for (let channel = 0; channel < format.channels; channel++) sum += read(base + channel * bytesPerSample);
    const value = sum / format.channels;
    samples[frame] = value > 1 ? 1 : value < -1 ? -1 : value;
  }
  return { sampleRate: format.sampleRate, channels: format.channels, samples, duration };
}
