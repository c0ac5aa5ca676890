import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './account/account-routes.js';
import { agentRoutes } from './agents/agent-routes.js';
import { conversationRoutes } from './agents/conversation-routes.js';
import { batchRoutes } from './batch/batch-routes.js';
import { chatRoutes } from './chat/chat-routes.js';
import { completionRoutes } from './completions/completion-routes.js';
import { embeddingRoutes } from './embeddings/embedding-routes.js';
import { fileRoutes } from './files/file-routes.js';
import { libraryRoutes } from './files/library-routes.js';
import { ocrRoutes } from './ocr/ocr-routes.js';
import { transcriptRoutes } from './transcript/transcript-routes.js';
import { speechRoutes } from './transcript/speech-routes.js';
import { imageAnalysisRoutes } from './vision/image-analysis-routes.js';
import { imageGenerationRoutes } from './vision/image-generation-routes.js';
import { consoleRoutes } from './console/console-routes.js';
import { modelsRoutes } from './models/models-routes.js';
import { statusRoutes } from './status/status-routes.js';
import { healthRoutes } from './health/health-routes.js';
import { metricsRoutes } from './metrics/metrics-routes.js';
import { localModelsRoutes } from './local-models/local-models-routes.js';
import { responsesRoutes } from './responses/responses-routes.js';
import { mistralBatchJobsRoutes } from './batch/mistral-batch-jobs-routes.js';
import { mistralFineTuningRoutes } from './models/mistral-fine-tuning-routes.js';
import { fimRoutes } from './fim/fim-routes.js';
import { classifierRoutes } from './classifiers/classifier-routes.js';
import { platformRoutes } from './agents/platform-routes.js';
import { settingsRoutes } from './settings/settings-routes.js';

export interface ApiRoutesOptions {
  /** The largest file a multipart upload may carry (the body limit). */
  uploadLimitBytes: number;
}

/**
 * The routes that take multipart uploads, in a context of their own with the multipart parser: its
 * hooks (an async onRequest and onResponse, for temporary files) run for these requests only, not for
 * every chat. Elsewhere a multipart body is answered with 415.
 */
const uploadRoutes: FastifyPluginAsync<ApiRoutesOptions> = async (app, { uploadLimitBytes }) => {
  await app.register(multipart, {
    limits: { fileSize: uploadLimitBytes, files: 1, fields: 20, fieldSize: 1024 * 1024 },
  });
  await app.register(fileRoutes);
  await app.register(ocrRoutes);
  await app.register(transcriptRoutes);
};

/** Every resource's routes. */
export const apiRoutes: FastifyPluginAsync<ApiRoutesOptions> = async (app, options) => {
  await app.register(statusRoutes);
  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  await app.register(modelsRoutes);
  await app.register(mistralFineTuningRoutes);
  await app.register(accountRoutes);
  await app.register(consoleRoutes);
  await app.register(settingsRoutes);
  await app.register(chatRoutes);
  await app.register(responsesRoutes);
  await app.register(completionRoutes);
  await app.register(fimRoutes);
  await app.register(classifierRoutes);
  await app.register(platformRoutes);
  await app.register(embeddingRoutes);
  await app.register(uploadRoutes, options);
  await app.register(libraryRoutes);
  await app.register(imageGenerationRoutes);
  await app.register(imageAnalysisRoutes);
  await app.register(speechRoutes);
  await app.register(batchRoutes);
  await app.register(mistralBatchJobsRoutes);
  await app.register(agentRoutes);
  await app.register(conversationRoutes);
  await app.register(localModelsRoutes);
};
