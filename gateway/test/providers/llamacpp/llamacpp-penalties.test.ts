import { describe, expect, it } from 'vitest';
import { toGenerationOptions } from '../../../src/providers/llamacpp/generation-options.js';

const signal = new AbortController().signal;

describe("llama.cpp's penalties", () => {
  it("map presence_penalty and frequency_penalty onto node-llama-cpp's repeatPenalty", () => {
    const options = toGenerationOptions(
      { model: 'tiny', presence_penalty: 0.5, frequency_penalty: 1.25, signal },
      10,
      512,
    );
    expect(options.repeatPenalty).toEqual({ presencePenalty: 0.5, frequencyPenalty: 1.25 });
  });

  it("keep node-llama-cpp's default repeat penalty when the client sends none", () => {
    expect(toGenerationOptions({ model: 'tiny', signal }, 10, 512).repeatPenalty).toBeUndefined();
  });
});
