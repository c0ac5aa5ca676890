import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './account/account-routes.js';
import { agentRoutes } from './agents/agent-routes.js';
import { batchRoutes } from './batch/batch-routes.js';
import { chatRoutes } from './chat/chat-routes.js';
import { completionRoutes } from './completions/completion-routes.js';
import { embeddingRoutes } from './embeddings/embedding-routes.js';
import { fileRoutes } from './files/file-routes.js';
import { ocrRoutes } from './ocr/ocr-routes.js';
import { transcriptRoutes } from './transcript/transcript-routes.js';
import { imageAnalysisRoutes } from './vision/image-analysis-routes.js';
import { imageGenerationRoutes } from './vision/image-generation-routes.js';
import { consoleRoutes } from './console/console-routes.js';
import { modelsRoutes } from './models/models-routes.js';
import { statusRoutes } from './status/status-routes.js';
import { responsesRoutes } from './responses/responses-routes.js';
import { mistralBatchJobsRoutes } from './batch/mistral-batch-jobs-routes.js';
import { mistralFineTuningRoutes } from './models/mistral-fine-tuning-routes.js';

/** Every resource's routes. */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(statusRoutes);
  await app.register(modelsRoutes);
  await app.register(mistralFineTuningRoutes);
  await app.register(accountRoutes);
  await app.register(consoleRoutes);
  await app.register(chatRoutes);
  await app.register(responsesRoutes);
  await app.register(completionRoutes);
  await app.register(embeddingRoutes);
  await app.register(fileRoutes);
  await app.register(ocrRoutes);
  await app.register(imageGenerationRoutes);
  await app.register(imageAnalysisRoutes);
  await app.register(transcriptRoutes);
  await app.register(batchRoutes);
  await app.register(mistralBatchJobsRoutes);
  await app.register(agentRoutes);
};
