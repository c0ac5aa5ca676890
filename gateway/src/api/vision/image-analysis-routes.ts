import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_VISION_MODEL } from '../../wire/default-models.js';
import { askChat, helperChatRoute } from '../../core/routing/chat-route.js';
import { documentSourceLimits, loadDocumentSource } from '../../core/files/document-source.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { newId } from '../../core/ids/ids.js';
import { toGatewayError } from '../../core/errors/provider-error-mapping.js';
import { describeFacts, imageFacts, type ImageFacts } from '../../core/vision/image-facts.js';
import { sniffMediaType } from '../../media/sniff-media-type.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { recordUsage } from '../_shared/record-usage.js';
import { AnalyzeBody, Analysis } from './image-analysis-schemas.js';

/**
 * POST /v1/vision/analyze: a vision-language route sees the image itself; otherwise the local engines
 * describe what they can measure (size, format, colours, text with positions), explained in light of
 * the prompt by a chat route when one exists.
 */
export const imageAnalysisRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const services = app.services;
  app.post(
    '/v1/vision/analyze',
    { config: { billable: true }, schema: { tags: ['vision'], summary: 'Analyse an image with a prompt', body: AnalyzeBody, response: { 200: Analysis, ...errorResponses } } },
    async (request, reply) => {
      const body = request.body;
      const route = services.models.resolve(body.model ?? DEFAULT_VISION_MODEL, 'vision');
      const signal = clientAbortSignal(reply);
      const bytes = await loadDocumentSource(body.image, documentSourceLimits(services));
      if (bytes.length === 0) throw new GatewayError(422, 'empty_document', 'The image is empty (0 bytes).', { param: 'image' });
      const mimeType = sniffMediaType(bytes);
      if (!mimeType || mimeType === 'application/pdf') throw new GatewayError(415, 'unsupported_media_type', 'The image is not a supported format: send PNG, JPEG, WebP, TIFF, BMP or GIF.', { param: 'image' });
      const result = (model: string, analysis: string, method: string, usage: TokenUsage, details?: ImageFacts) => ({
        id: newId('vis-'),
        object: 'vision.analysis' as const,
        model,
        analysis,
        created: Math.floor(Date.now() / 1000),
        method,
        ...(details ? { details } : {}),
      });

      if (route.provider.capabilities.chat) {
        const dataUrl = `data:${mimeType};base64,${bytes.toString('base64')}`;
        const answer = await askChat(services.runner, route, [{ role: 'user', content: [{ type: 'text', text: body.prompt }, { type: 'image_url', image_url: { url: dataUrl } }] }], { signal });
        recordUsage(request, reply, answer.route, answer.usage);
        return result(answer.route.id, answer.text, 'vision_model', answer.usage);
      }

      let facts: ImageFacts;
      try {
        const ocr = route.provider.capabilities.ocr
          ? (await services.runner.run(route, 'vision', signal, (candidate, attemptSignal) => candidate.provider.capabilities.ocr!.ocr({ model: candidate.upstreamModel, document: bytes, mimeType, signal: attemptSignal }))).value
          : undefined;
        facts = await imageFacts(bytes, mimeType, ocr);
      } catch (error) {
        throw toGatewayError(error, route.provider.id);
      }
      const described = describeFacts(facts, body.prompt);
      const chat = helperChatRoute(services.models);
      if (chat) {
        const answer = await askChat(
          services.runner,
          chat,
          [
            { role: 'system', content: 'You cannot see the image. Answer the request using only these measured facts about it, and say when the facts are not enough.' },
            { role: 'user', content: `Facts about the image:\n${described}\n\nRequest: ${body.prompt}` },
          ],
          { signal, maxTokens: 512 },
        );
        recordUsage(request, reply, route, answer.usage);
        return result(route.id, answer.text, 'local_with_chat', answer.usage, facts);
      }
      recordUsage(request, reply, route, { prompt_tokens: 0, completion_tokens: 0 });
      return result(route.id, described, 'local', { prompt_tokens: 0, completion_tokens: 0 }, facts);
    },
  );
};
