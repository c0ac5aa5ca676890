import { DEFAULT_VISION_MODEL } from '../../wire/default-models.js';
import type { OcrProvider } from '../../providers/contracts/ocr.js';
import type { UsageMeter } from '../billing/billing-service.js';
import { toGatewayError } from '../errors/provider-error-mapping.js';
import { documentSourceLimits, loadDocument, type LoadedDocument } from '../files/document-source.js';
import type { ChatService } from '../chat/chat-service.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import type { OcrAdmission } from '../ocr/ocr-admission.js';
import { describeFacts, imageFacts, type ImageFacts } from './image-facts.js';
import type { MediaDecoder } from '../../media/media-decoder.js';

export interface ImageAnalysis {
  /** The route that answered. */
  model: string;
  analysis: string;
  /** vision_model: a vision-language route saw the image; local_with_chat: local facts explained by a chat route; local: local facts only. */
  method: 'vision_model' | 'local_with_chat' | 'local';
  /** The measured facts, when the local engines looked. */
  details?: ImageFacts;
}

export interface ImageAnalysisServices {
  chat: ChatService;
  models: ModelRegistry;
  runner: RouteRunner;
  options: { server: { bodyLimitBytes: number } };
  urlFetchPolicy: AddressPolicy;
  ocrAdmission: OcrAdmission;
  media: MediaDecoder;
}

const NO_USAGE = { prompt_tokens: 0, completion_tokens: 0 };

/**
 * An image analysed with a prompt: a vision-language route sees the image itself; otherwise the local
 * engines describe what they can measure (size, format, colours, text with positions), explained in
 * light of the prompt by a chat route when one exists.
 */
export class ImageAnalysisService {
  constructor(private readonly services: ImageAnalysisServices) {}

  /** `keyId`: the calling key, whose turn the local OCR engine waits for. */
  async analyse(
    model: string | undefined,
    image: string,
    prompt: string,
    keyId: string | null,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<ImageAnalysis> {
    const route = this.services.models.resolveOrDefault(model, 'vision', DEFAULT_VISION_MODEL);
    const loaded = await loadDocument(image, documentSourceLimits(this.services), { param: 'image', accept: 'images' });
    if (route.provider.capabilities.chat) return this.seen(route, loaded, prompt, meter, signal);
    const facts = await this.measured(route, loaded, keyId, signal);
    const described = describeFacts(facts, prompt);
    // The local look is billed on the vision route; a chat turn that explains it adds its own tokens.
    meter.charge(route, NO_USAGE);
    const chat = this.services.chat.helperRoute();
    if (!chat) return { model: route.id, analysis: described, method: 'local', details: facts };
    const answer = await this.services.chat.ask(
      chat,
      [
        {
          role: 'system',
          content:
            'You cannot see the image. Answer the request using only these measured facts about it, and say when the facts are not enough.',
        },
        { role: 'user', content: `Facts about the image:\n${described}\n\nRequest: ${prompt}` },
      ],
      { maxTokens: 512, named: route },
      meter,
      signal,
    );
    return { model: route.id, analysis: answer.text, method: 'local_with_chat', details: facts };
  }

  /** A vision-language route looks at the image itself. */
  private async seen(
    route: ModelRoute,
    image: LoadedDocument,
    prompt: string,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<ImageAnalysis> {
    const dataUrl = `data:${image.mediaType};base64,${image.bytes.toString('base64')}`;
    const answer = await this.services.chat.ask(
      route,
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: prompt },
            { type: 'image_url', image_url: { url: dataUrl } },
          ],
        },
      ],
      {},
      meter,
      signal,
    );
    return { model: answer.route.id, analysis: answer.text, method: 'vision_model' };
  }

  /** What the local engines measure: size, format, colours, and the text an OCR route reads. */
  private async measured(
    route: ModelRoute,
    image: LoadedDocument,
    keyId: string | null,
    signal: AbortSignal,
  ): Promise<ImageFacts> {
    try {
      const read = (engine: OcrProvider, model: string, attemptSignal: AbortSignal, candidate: ModelRoute) =>
        this.services.ocrAdmission.engine(candidate, keyId, attemptSignal, () =>
          engine.ocr({ model, document: image.bytes, mimeType: image.mediaType, signal: attemptSignal }),
        );
      const ocr = route.provider.capabilities.ocr
        ? (await this.services.runner.invoke(route, 'ocr', signal, read, 'vision')).value
        : undefined;
      return await imageFacts(this.services.media, image.bytes, image.mediaType, ocr, signal);
    } catch (error) {
      throw toGatewayError(error, route.provider.id);
    }
  }
}
