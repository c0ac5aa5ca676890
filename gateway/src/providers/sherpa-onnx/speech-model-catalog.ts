import { ProviderError } from '../_shared/provider-error.js';
import type { ProviderLogger } from '../contracts/provider-instance.js';
import type { SpeechModel } from './discover-speech-models.js';
import { discoverSpeechModels } from './discover-speech-models.js';
import type { SherpaOnnxOptions } from './sherpa-onnx-options.js';

/** The speech model folders under the model dir, looked up again when a request names a new one. */
export class SpeechModelCatalog {
  /** Undefined until the first look has finished. */
  models: SpeechModel[] | undefined;
  private discovery: Promise<SpeechModel[]> | undefined;
  private discoveryError: string | undefined;
  private readonly reportedFallbacks = new Set<string>();

  constructor(
    private readonly options: SherpaOnnxOptions,
    private readonly logger: ProviderLogger,
  ) {}

  /** Why no model can be used, in one line: the folder could not be read, or it holds none. */
  get noModelDetail(): string {
    return (
      this.discoveryError ??
      `no speech model installed: download one from the catalog (Models or Transcription page, POST /v1/local-models/downloads) or unpack a sherpa-onnx model into ${this.options.modelDir}/<name>/`
    );
  }

  discover(): Promise<SpeechModel[]> {
    this.discovery ??= discoverSpeechModels(this.options.modelDir)
      .then(
        (found) => {
          this.models = found;
          this.discoveryError = undefined;
          return found;
        },
        (error: Error) => {
          this.discoveryError = `cannot read the speech model folder ${this.options.modelDir}: ${error.message}`;
          this.models = [];
          return [];
        },
      )
      .finally(() => {
        this.discovery = undefined;
      });
    return this.discovery;
  }

  /**
   * The folder named `name` (a route's `upstream_model`); a route that names none (its model id
   * arrives here) gets the `default_model` folder, else the first one.
   */
  select(list: SpeechModel[], name: string): SpeechModel | undefined {
    return (
      list.find((model) => model.name === name) ??
      list.find((model) => model.name === this.options.defaultModel) ??
      list[0]
    );
  }

  async find(name: string): Promise<SpeechModel> {
    // The user may have added the named model since the last look.
    const exact = this.models?.find((model) => model.name === name);
    const model = exact ?? this.select(await this.discover(), name);
    if (!model) {
      throw new ProviderError('unavailable', this.noModelDetail, { code: 'speech_model_unavailable' });
    }
    if (model.name !== name && !this.reportedFallbacks.has(name)) {
      this.reportedFallbacks.add(name);
      this.logger.info(
        `no speech model folder named ${name}; using ${model.name} (set upstream_model to a folder name to choose)`,
      );
    }
    return model;
  }
}
