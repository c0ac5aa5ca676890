import { buildRecognizerConfig, modelFilesOf } from './build-recognizer-config.js';
import { checkOnnxFile } from './check-onnx-file.js';
import type { SpeechModel } from './discover-speech-models.js';
import { probeRecognizer } from './probe-recognizer.js';
import type { OfflineRecognizer } from './sherpa-onnx-binding.js';
import { loadSherpaOnnx } from './sherpa-onnx-binding.js';

export class ModelLoadError extends Error {
  override readonly name = 'ModelLoadError';
}

/**
 * Loads a discovered model without risking the process: the files' headers are checked first,
 * then a child process loads the model once (sherpa-onnx may exit or abort on a broken model),
 * and only then is it loaded here, asynchronously. Rejects with a ModelLoadError naming the problem.
 */
export async function loadRecognizer(
  model: SpeechModel,
  options: { numThreads: number; loadTimeoutMs: number },
): Promise<OfflineRecognizer> {
  for (const file of modelFilesOf(model)) {
    const problem = await checkOnnxFile(file);
    if (problem) throw new ModelLoadError(`speech model ${model.name}: ${problem}`);
  }
  const config = buildRecognizerConfig(model, options.numThreads);
  const problem = await probeRecognizer(config, options.loadTimeoutMs);
  if (problem)
    throw new ModelLoadError(`speech model ${model.name} (${model.kind}) in ${model.dir} cannot be loaded: ${problem}`);
  try {
    return await loadSherpaOnnx().OfflineRecognizer.createAsync(config);
  } catch (error) {
    throw new ModelLoadError(
      `speech model ${model.name} (${model.kind}) cannot be loaded: ${(error as Error).message}`,
    );
  }
}
