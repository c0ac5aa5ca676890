import { Type, type TObject } from '@fastify/type-provider-typebox';
import type { ModelInfo, ModelRoute } from '../../core/routing/model-registry.js';

/** Context length reported when a route does not say (Mistral's schema default). */
const DEFAULT_CONTEXT_LENGTH = 32768;

const MistralCapabilities = Type.Object({
  completion_chat: Type.Boolean(),
  function_calling: Type.Boolean(),
  reasoning: Type.Boolean(),
  completion_fim: Type.Boolean(),
  fine_tuning: Type.Boolean(),
  vision: Type.Boolean(),
  ocr: Type.Boolean(),
  classification: Type.Boolean(),
  moderation: Type.Boolean(),
  audio: Type.Boolean(),
  audio_transcription: Type.Boolean(),
});

/**
 * A model on /v1/models: the gateway's model object with Mistral's card fields, which Mistral's SDK
 * requires (`type` base or fine-tuned, `capabilities` as booleans, `max_context_length`; `job` and
 * `root` for fine-tuned models). The gateway's own capability names are in `capability_list`
 * (and in `capabilities` on GET /models, the console's list).
 */
export const modelCardSchema = (modelObject: TObject) =>
  Type.Object(
    {
      ...modelObject.properties,
      capabilities: MistralCapabilities,
      capability_list: Type.Array(Type.String()),
      type: Type.Union([Type.Literal('base'), Type.Literal('fine-tuned')]),
      name: Type.String(),
      max_context_length: Type.Integer(),
      internal: Type.Boolean(),
      job: Type.Optional(Type.String()),
      root: Type.Optional(Type.String()),
    },
    { additionalProperties: true },
  );

export function toModelCard(info: ModelInfo, route: ModelRoute) {
  const has = (capability: string): boolean =>
    info.capabilities.includes(capability as ModelInfo['capabilities'][number]);
  return {
    ...info,
    capabilities: {
      completion_chat: has('chat'),
      function_calling: has('chat'),
      reasoning: false,
      completion_fim: has('completions'),
      fine_tuning: false,
      vision: has('vision'),
      ocr: has('ocr'),
      classification: has('classification'),
      moderation: has('moderation'),
      audio: has('transcription'),
      audio_transcription: has('transcription'),
    },
    capability_list: info.capabilities,
    type: info.fine_tuned ? ('fine-tuned' as const) : ('base' as const),
    name: info.metadata.name ?? info.id,
    max_context_length: DEFAULT_CONTEXT_LENGTH,
    internal: false,
    // Fine-tuned models here are configured routes, not jobs run by the gateway: no job id, the upstream model as root.
    ...(info.fine_tuned ? { job: '', root: route.upstreamModel } : {}),
  };
}
