import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/_shared/provider-error.js';
import { buildSegments } from '../../../src/providers/sherpa-onnx/build-segments.js';
import { createSherpaOnnxProvider } from '../../../src/providers/sherpa-onnx/create-sherpa-onnx-provider.js';
import { discoverSpeechModels } from '../../../src/providers/sherpa-onnx/discover-speech-models.js';
import { readWav } from '../../../src/providers/sherpa-onnx/read-wav.js';
import { resampleLinear } from '../../../src/providers/sherpa-onnx/resample-linear.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import type { TranscriptionRequest } from '../../../src/providers/contracts/transcription.js';
import { closeAfterTest, useTempDir } from '../../support/use-resources.js';

type Encoding = { format: 'pcm'; bits: 8 | 16 | 24 } | { format: 'float'; bits: 32 };

/** A RIFF/WAVE file of `channels` interleaved channels, each a function of the frame index. */
function makeWav(options: {
  sampleRate: number;
  frames: number;
  encoding: Encoding;
  channels?: ((frame: number) => number)[];
}): Buffer {
  const channels = options.channels ?? [
    (frame: number) => Math.sin((2 * Math.PI * 440 * frame) / options.sampleRate) * 0.5,
  ];
  const bytesPerSample = options.encoding.bits / 8;
  const blockAlign = bytesPerSample * channels.length;
  const data = Buffer.alloc(options.frames * blockAlign);
  for (let frame = 0; frame < options.frames; frame++) {
    channels.forEach((channel, c) => {
      const value = channel(frame);
      const offset = frame * blockAlign + c * bytesPerSample;
      if (options.encoding.format === 'float') data.writeFloatLE(value, offset);
      else if (options.encoding.bits === 8) data.writeUInt8(Math.round(value * 127 + 128), offset);
      else if (options.encoding.bits === 16) data.writeInt16LE(Math.round(value * 32767), offset);
      else data.writeIntLE(Math.round(value * 8388607), offset, 3);
    });
  }
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(options.encoding.format === 'float' ? 3 : 1, 0);
  fmt.writeUInt16LE(channels.length, 2);
  fmt.writeUInt32LE(options.sampleRate, 4);
  fmt.writeUInt32LE(options.sampleRate * blockAlign, 8);
  fmt.writeUInt16LE(blockAlign, 12);
  fmt.writeUInt16LE(options.encoding.bits, 14);
  const chunk = (id: string, body: Buffer) => {
    const header = Buffer.alloc(8);
    header.write(id, 0, 'latin1');
    header.writeUInt32LE(body.length, 4);
    return Buffer.concat([header, body]);
  };
  const body = Buffer.concat([
    Buffer.from('WAVE', 'latin1'),
    chunk('fmt ', fmt),
    chunk('LIST', Buffer.from('INFOjunk')),
    chunk('data', data),
  ]);
  return chunk('RIFF', body);
}

/**
 * A valid ONNX model (one Identity node, protobuf written by hand) that is not a speech model: it
 * lacks the metadata sherpa-onnx reads, and sherpa-onnx answers that by exiting the process.
 */
function identityOnnxModel(): Buffer {
  const varint = (value: number) => {
    const out: number[] = [];
    for (; value > 0x7f; value >>>= 7) out.push((value & 0x7f) | 0x80);
    out.push(value);
    return Buffer.from(out);
  };
  const int = (field: number, value: number) => Buffer.concat([varint(field << 3), varint(value)]);
  const bytes = (field: number, body: Buffer | string) => {
    const buffer = Buffer.from(body);
    return Buffer.concat([varint((field << 3) | 2), varint(buffer.length), buffer]);
  };
  // TypeProto.tensor_type { elem_type: FLOAT, shape { dim { dim_value: 4 } } }
  const tensorType = bytes(1, Buffer.concat([int(1, 1), bytes(2, bytes(1, int(1, 4)))]));
  const valueInfo = (name: string) => Buffer.concat([bytes(1, name), bytes(2, tensorType)]);
  const node = Buffer.concat([bytes(1, 'x'), bytes(2, 'y'), bytes(4, 'Identity')]);
  const graph = Buffer.concat([bytes(1, node), bytes(2, 'g'), bytes(11, valueInfo('x')), bytes(12, valueInfo('y'))]);
  // ir_version 8, a doc_string to pass the size check, the graph, opset 13.
  return Buffer.concat([int(1, 8), bytes(6, 'x'.repeat(1100)), bytes(7, graph), bytes(8, int(2, 13))]);
}

function expectProviderError(error: unknown, kind: ProviderError['kind'], code?: string): ProviderError {
  expect(error).toBeInstanceOf(ProviderError);
  const providerError = error as ProviderError;
  expect(providerError.kind).toBe(kind);
  if (code) expect(providerError.code).toBe(code);
  return providerError;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('readWav', () => {
  it('decodes 16-bit PCM to samples in [-1, 1] with the duration from the header', () => {
    const wav = makeWav({
      sampleRate: 16_000,
      frames: 8_000,
      encoding: { format: 'pcm', bits: 16 },
      channels: [() => 0.25],
    });
    const audio = readWav(wav);
    expect(audio.sampleRate).toBe(16_000);
    expect(audio.samples).toHaveLength(8_000);
    expect(audio.duration).toBeCloseTo(0.5);
    expect(audio.samples[100]).toBeCloseTo(0.25, 3);
  });

  it('decodes 32-bit float and 24-bit PCM', () => {
    const float = readWav(
      makeWav({ sampleRate: 22_050, frames: 100, encoding: { format: 'float', bits: 32 }, channels: [() => -0.75] }),
    );
    expect(float.samples[50]).toBeCloseTo(-0.75, 5);
    const pcm24 = readWav(
      makeWav({ sampleRate: 8_000, frames: 100, encoding: { format: 'pcm', bits: 24 }, channels: [() => 0.5] }),
    );
    expect(pcm24.samples[50]).toBeCloseTo(0.5, 5);
  });

  it('mixes stereo down to mono', () => {
    const wav = makeWav({
      sampleRate: 16_000,
      frames: 1_000,
      encoding: { format: 'pcm', bits: 16 },
      channels: [() => 0.6, () => -0.2],
    });
    const audio = readWav(wav);
    expect(audio.channels).toBe(2);
    expect(audio.samples).toHaveLength(1_000);
    expect(audio.samples[10]).toBeCloseTo(0.2, 3);
  });

  it('rejects 8-bit WAV with a message saying what to convert it to', () => {
    const error = expectProviderError(
      (() => {
        try {
          readWav(makeWav({ sampleRate: 8_000, frames: 100, encoding: { format: 'pcm', bits: 8 } }));
        } catch (e) {
          return e;
        }
      })(),
      'invalid_input',
      'unsupported_audio_format',
    );
    expect(error.message).toMatch(/8-bit/);
    expect(error.message).toMatch(/16-bit PCM/);
  });

  it('rejects audio that is not WAV with the unsupported_audio_format code', () => {
    const mp3 = Buffer.concat([Buffer.from('ID3\x04\x00\x00', 'latin1'), Buffer.alloc(200)]);
    expect(() => readWav(mp3)).toThrow(/accepts WAV .*upstream transcription route/);
    try {
      readWav(mp3);
    } catch (error) {
      expectProviderError(error, 'invalid_input', 'unsupported_audio_format');
    }
  });

  it('rejects audio longer than the limit before decoding it', () => {
    const wav = makeWav({ sampleRate: 8_000, frames: 8_000 * 3, encoding: { format: 'pcm', bits: 16 } });
    expect(readWav(wav, { maxDurationSeconds: 3 }).duration).toBe(3);
    try {
      readWav(wav, { maxDurationSeconds: 2 });
      throw new Error('expected a rejection');
    } catch (error) {
      expect(expectProviderError(error, 'too_large', 'audio_too_long').message).toMatch(/3\.0 s.*at most 2 s/);
    }
  });
});

describe('resampleLinear', () => {
  it('changes the length by the rate ratio and keeps the signal level', () => {
    const oneSecond48k = new Float32Array(48_000).fill(0.5);
    const out = resampleLinear(oneSecond48k, 48_000, 16_000);
    expect(out).toHaveLength(16_000);
    expect(out[8_000]).toBeCloseTo(0.5, 5);
    expect(resampleLinear(new Float32Array(8_000), 8_000, 16_000)).toHaveLength(16_000);
    expect(resampleLinear(new Float32Array(44_100), 44_100, 16_000)).toHaveLength(16_000);
  });

  it('keeps a low tone when downsampling', () => {
    const tone = Float32Array.from({ length: 44_100 }, (_, i) => Math.sin((2 * Math.PI * 200 * i) / 44_100));
    const out = resampleLinear(tone, 44_100, 16_000);
    const expected = Math.sin((2 * Math.PI * 200 * 4_000) / 16_000);
    expect(out[4_000]).toBeCloseTo(expected, 1);
  });
});

describe('buildSegments', () => {
  it('splits at pauses and sentence ends when the model gives timestamps', () => {
    const segments = buildSegments(
      {
        text: 'HELLO WORLD. HOW ARE YOU',
        tokens: ['▁HELLO', '▁WOR', 'LD.', '▁HOW', '▁ARE', '▁YOU'],
        timestamps: [0.1, 0.5, 0.7, 1.2, 3.0, 3.3],
      },
      4,
    );
    expect(segments.map((s) => s.text)).toEqual(['HELLO WORLD.', 'HOW', 'ARE YOU']);
    expect(segments[0]).toMatchObject({ id: 0, start: 0.1 });
    expect(segments[2]).toMatchObject({ id: 2, start: 3, end: 4 });
  });

  it('gives one segment spanning the audio when there are no timestamps', () => {
    expect(buildSegments({ text: ' hello there ', timestamps: [], tokens: [] }, 2.5)).toEqual([
      { id: 0, start: 0, end: 2.5, text: 'hello there' },
    ]);
    expect(buildSegments({ text: '' }, 2.5)).toEqual([]);
  });
});

describe('sherpa-onnx provider', () => {
  let dataDir: string;
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const speechDir = () => path.join(dataDir, 'models', 'speech');

  beforeEach(() => {
    dataDir = useTempDir('switchyard-sherpa-');
  });

  async function place(model: string, files: Record<string, Buffer | string>): Promise<void> {
    const dir = path.join(speechDir(), model);
    await mkdir(dir, { recursive: true });
    for (const [name, content] of Object.entries(files)) await writeFile(path.join(dir, name), content);
  }

  function start(options: Record<string, unknown> = {}): ProviderInstance {
    return closeAfterTest(
      createSherpaOnnxProvider({ id: 'speech', options: { type: 'sherpa-onnx', ...options }, dataDir, logger }),
    );
  }

  function request(audio: Buffer, model = 'auto'): TranscriptionRequest {
    return { model, audio, filename: 'a.wav', mimeType: 'audio/wav', signal: new AbortController().signal };
  }

  const shortWav = () => makeWav({ sampleRate: 16_000, frames: 1_600, encoding: { format: 'pcm', bits: 16 } });
  /** Random bytes: not an ONNX model. */
  const garbage = () => Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251));
  /** Starts like an ONNX ModelProto (ir_version 8) but the rest is garbage: only the native runtime can tell. */
  const plausibleButBroken = () => Buffer.concat([Buffer.from([0x08, 0x08]), garbage()]);

  it('discovers Whisper, transducer, paraformer and SenseVoice layouts and skips unknown folders', async () => {
    const onnx = plausibleButBroken();
    await place('whisper-tiny', {
      'tiny.en-encoder.onnx': onnx,
      'tiny.en-encoder.int8.onnx': onnx,
      'tiny.en-decoder.int8.onnx': onnx,
      'tiny.en-tokens.txt': 'a 0\n',
    });
    await place('zipformer-en', {
      'encoder-epoch-99-avg-1.onnx': onnx,
      'decoder-epoch-99-avg-1.onnx': onnx,
      'joiner-epoch-99-avg-1.onnx': onnx,
      'tokens.txt': 'a 0\n',
    });
    await place('paraformer-zh', { 'model.int8.onnx': onnx, 'tokens.txt': 'a 0\n' });
    await place('sherpa-onnx-sense-voice-zh-en', { 'model.onnx': onnx, 'tokens.txt': 'a 0\n' });
    await place('notes', { 'README.md': 'hello' });
    await place('no-tokens', { 'model.onnx': onnx });

    const models = await discoverSpeechModels(speechDir());
    const dir = (name: string) => path.join(speechDir(), name);
    expect(models).toEqual([
      {
        name: 'paraformer-zh',
        kind: 'paraformer',
        dir: dir('paraformer-zh'),
        files: {
          tokens: path.join(dir('paraformer-zh'), 'tokens.txt'),
          model: path.join(dir('paraformer-zh'), 'model.int8.onnx'),
        },
      },
      {
        name: 'sherpa-onnx-sense-voice-zh-en',
        kind: 'sense_voice',
        dir: dir('sherpa-onnx-sense-voice-zh-en'),
        files: {
          tokens: path.join(dir('sherpa-onnx-sense-voice-zh-en'), 'tokens.txt'),
          model: path.join(dir('sherpa-onnx-sense-voice-zh-en'), 'model.onnx'),
        },
      },
      {
        name: 'whisper-tiny',
        kind: 'whisper',
        dir: dir('whisper-tiny'),
        files: {
          tokens: path.join(dir('whisper-tiny'), 'tiny.en-tokens.txt'),
          encoder: path.join(dir('whisper-tiny'), 'tiny.en-encoder.int8.onnx'),
          decoder: path.join(dir('whisper-tiny'), 'tiny.en-decoder.int8.onnx'),
        },
      },
      {
        name: 'zipformer-en',
        kind: 'transducer',
        dir: dir('zipformer-en'),
        files: {
          tokens: path.join(dir('zipformer-en'), 'tokens.txt'),
          encoder: path.join(dir('zipformer-en'), 'encoder-epoch-99-avg-1.onnx'),
          decoder: path.join(dir('zipformer-en'), 'decoder-epoch-99-avg-1.onnx'),
          joiner: path.join(dir('zipformer-en'), 'joiner-epoch-99-avg-1.onnx'),
        },
      },
    ]);
  });

  it('follows a symbolic link to a model kept elsewhere', async () => {
    const elsewhere = path.join(dataDir, 'downloads', 'sherpa-onnx-paraformer-en');
    await mkdir(elsewhere, { recursive: true });
    await writeFile(path.join(elsewhere, 'model.onnx'), plausibleButBroken());
    await writeFile(path.join(elsewhere, 'tokens.txt'), 'a 0\n');
    await mkdir(speechDir(), { recursive: true });
    await symlink(elsewhere, path.join(speechDir(), 'paraformer-en'), 'dir');
    const models = await discoverSpeechModels(speechDir());
    expect(models.map((m) => [m.name, m.kind])).toEqual([['paraformer-en', 'paraformer']]);
  });

  it('finds no models in a folder that does not exist', async () => {
    expect(await discoverSpeechModels(path.join(dataDir, 'nowhere'))).toEqual([]);
  });

  it('is unavailable with a how-to hint when no model is installed, and transcribe says the same', async () => {
    const speech = start();
    await speech.warm?.();
    const status = speech.status();
    expect(status.state).toBe('unavailable');
    expect(status.detail).toContain(speechDir());
    expect(status.detail).toMatch(/download one from the catalog .* or unpack a sherpa-onnx model into/i);
    expect(status.detail).not.toContain('\n');

    const error = expectProviderError(
      await rejection(speech.capabilities.transcription!.transcribe(request(shortWav()))),
      'unavailable',
    );
    expect(error.message).toContain(speechDir());
  });

  it('reads models from the folder named in model_dir', async () => {
    const speech = start({ model_dir: 'my-models' });
    await speech.warm?.();
    expect(speech.status().detail).toContain(path.join(dataDir, 'my-models'));
  });

  it('reports a model file that is not ONNX by name, without loading it', async () => {
    await place('broken-whisper', {
      'tiny-encoder.onnx': garbage(),
      'tiny-decoder.onnx': garbage(),
      'tiny-tokens.txt': 'a 0\n',
    });
    const speech = start();
    await speech.warm?.();
    expect(speech.status()).toEqual({
      state: 'unavailable',
      detail: expect.stringMatching(/broken-whisper.*tiny-(en|de)coder\.onnx is not an ONNX model/),
    });
    expect(speech.modelStatus?.('broken-whisper').state).toBe('unavailable');

    const error = expectProviderError(
      await rejection(speech.capabilities.transcription!.transcribe(request(shortWav(), 'broken-whisper'))),
      'unavailable',
      'speech_model_unavailable',
    );
    expect(error.message).toMatch(/not an ONNX model/);
  });

  it('survives a model the native runtime rejects, and says why', async () => {
    await place('corrupt-paraformer', { 'model.onnx': plausibleButBroken(), 'tokens.txt': 'a 0\n' });
    const speech = start();
    const error = expectProviderError(
      await rejection(speech.capabilities.transcription!.transcribe(request(shortWav()))),
      'unavailable',
      'speech_model_unavailable',
    );
    expect(error.message).toMatch(/corrupt-paraformer.*cannot be loaded/);
    expect(speech.status().state).toBe('unavailable');
    // The process is still here and the provider still answers.
    const again = await rejection(speech.capabilities.transcription!.transcribe(request(shortWav())));
    expectProviderError(again, 'unavailable', 'speech_model_unavailable');
  });

  it('survives a valid ONNX file that is not a speech model, which makes sherpa-onnx exit the process', async () => {
    await place('not-speech', { 'model.onnx': identityOnnxModel(), 'tokens.txt': 'a 0\n' });
    const speech = start();
    await speech.warm?.();
    expect(speech.status()).toEqual({ state: 'unavailable', detail: expect.stringMatching(/not-speech.*vocab_size/) });
    const error = expectProviderError(
      await rejection(speech.capabilities.transcription!.transcribe(request(shortWav(), 'not-speech'))),
      'unavailable',
      'speech_model_unavailable',
    );
    expect(error.message).toMatch(/cannot be loaded/);
  });

  it('serves a request for a model id that names no folder with default_model, else the first model', async () => {
    const broken = { 'model.onnx': garbage(), 'tokens.txt': 'a 0\n' };
    await place('a-paraformer', broken);
    await place('b-paraformer', broken);
    const transcribeWith = async (speech: ProviderInstance, model: string) =>
      (await rejection(speech.capabilities.transcription!.transcribe(request(shortWav(), model)))) as Error;

    const first = start();
    expect((await transcribeWith(first, 'svc-transcribe-2507')).message).toMatch(/a-paraformer/);
    expect((await transcribeWith(first, 'b-paraformer')).message).toMatch(/b-paraformer/);
    await first.close();

    const chosen = start({ default_model: 'b-paraformer' });
    expect((await transcribeWith(chosen, 'svc-transcribe-2507')).message).toMatch(/b-paraformer/);
  });

  it('rejects audio over max_duration_seconds and non-WAV audio before touching a model', async () => {
    const speech = start({ max_duration_seconds: 1 });
    const long = makeWav({ sampleRate: 8_000, frames: 8_000 * 2, encoding: { format: 'pcm', bits: 16 } });
    expectProviderError(
      await rejection(speech.capabilities.transcription!.transcribe(request(long))),
      'too_large',
      'audio_too_long',
    );
    const ogg = Buffer.concat([Buffer.from('OggS', 'latin1'), Buffer.alloc(100)]);
    expectProviderError(
      await rejection(speech.capabilities.transcription!.transcribe(request(ogg))),
      'invalid_input',
      'unsupported_audio_format',
    );
  });

  it('rejects invalid options at start', () => {
    expect(() => start({ max_duration_seconds: 'long' })).toThrow(/max_duration_seconds/);
  });
});
