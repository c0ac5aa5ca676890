import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { newId } from '../../core/ids/ids.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { AnalyzeBody, Analysis } from './image-analysis-schemas.js';
import type { ImageAnalysisService } from '../../core/vision/image-analysis-service.js';

/** POST /v1/vision/analyze: an image and a prompt, analysed by core/vision (see ImageAnalysisService for the three ways). */
export const imageAnalysisRoutes: FastifyPluginAsyncTypebox<{ imageAnalysis: ImageAnalysisService }> = async (
  app,
  { imageAnalysis },
) => {
  app.post(
    '/v1/vision/analyze',
    {
      config: { billable: true },
      schema: {
        tags: ['vision'],
        summary: 'Analyse an image with a prompt',
        body: AnalyzeBody,
        response: { 200: Analysis, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const result = await imageAnalysis.analyse(
        body.model,
        body.image,
        body.prompt,
        request.apiKey?.id ?? null,
        request.billing,
        clientAbortSignal(reply),
      );
      return {
        id: newId('vis-'),
        object: 'vision.analysis' as const,
        model: result.model,
        analysis: result.analysis,
        created: Math.floor(Date.now() / 1000),
        method: result.method,
        ...(result.details ? { details: result.details } : {}),
      };
    },
  );
};
