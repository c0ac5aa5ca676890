import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './account/account-routes.js';
import { agentRoutes } from './agents/agent-routes.js';
import { conversationRoutes } from './agents/conversation-routes.js';
import { batchRoutes } from './batch/batch-routes.js';
import { evalsRoutes } from './evals/evals-routes.js';
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
import { mcpRoutes } from './mcp/mcp-routes.js';
import type { UploadIntake } from './_shared/read-multipart.js';
import type { AccountService } from '../core/account/account-service.js';
import type { KeyService } from '../core/account/key-service.js';
import type { AgentsService } from '../core/agents/agents-service.js';
import type { ConversationsService } from '../core/agents/conversations-service.js';
import type { TranscriptionService } from '../core/audio/transcription-service.js';
import type { BatchService } from '../core/batch/batch-service.js';
import type { EvalsService } from '../core/evals/evals-service.js';
import type { ChatService } from '../core/chat/chat-service.js';
import type { ClassifierService } from '../core/classifiers/classifier-service.js';
import type { CompletionService } from '../core/completions/completion-service.js';
import type { DocumentService } from '../core/documents/document-service.js';
import type { EmbeddingService } from '../core/embeddings/embedding-service.js';
import type { FileStore } from '../core/files/file-store.js';
import type { SignedFileLinks } from '../core/files/signed-file-links.js';
import type { FimService } from '../core/fim/fim-service.js';
import type { ImageGenerationService } from '../core/images/image-generation-service.js';
import type { LocalModels } from '../core/local-models/local-models.js';
import type { McpService } from '../core/mcp/mcp-service.js';
import type { IdGenerator } from '../core/ids/id-generator.js';
import type { GatewayMetrics } from '../core/metrics/gateway-metrics.js';
import type { OcrService } from '../core/ocr/ocr-service.js';
import type { ReplayService } from '../core/request-log/replay-service.js';
import type { RequestLog } from '../core/request-log/request-log.js';
import type { ResponsesService } from '../core/responses/responses-service.js';
import type { ModelRegistry } from '../core/routing/model-registry.js';
import type { SettingsService } from '../core/settings/settings-service.js';
import type { GatewayStatus } from '../core/status/gateway-status.js';
import type { ImageAnalysisService } from '../core/vision/image-analysis-service.js';

/** The use cases the routes call, one service each; each route plugin gets only its own. */
export interface ApiServices {
  status: GatewayStatus;
  metrics: GatewayMetrics;
  models: ModelRegistry;
  keys: KeyService;
  accounts: AccountService;
  requestLog: RequestLog;
  replay: ReplayService;
  settings: SettingsService;
  chat: ChatService;
  documents: DocumentService;
  responses: ResponsesService;
  completions: CompletionService;
  fim: FimService;
  embeddings: EmbeddingService;
  classifiers: ClassifierService;
  files: FileStore;
  fileLinks: SignedFileLinks;
  ocr: OcrService;
  transcription: TranscriptionService;
  imageGeneration: ImageGenerationService;
  imageAnalysis: ImageAnalysisService;
  batches: BatchService;
  evals: EvalsService;
  agents: AgentsService;
  conversations: ConversationsService;
  localModels: LocalModels;
  mcp: McpService;
  /** The answers' ids. */
  ids: IdGenerator;
  /** Where multipart uploads are received and the limits they are read under. */
  uploads: UploadIntake;
}

/**
 * The routes that take multipart uploads, in a context of their own with the multipart parser: its
 * hooks (an async onRequest and onResponse, for temporary files) run for these requests only, not for
 * every chat. Elsewhere a multipart body is answered with 415.
 */
const uploadRoutes: FastifyPluginAsync<
  Pick<ApiServices, 'files' | 'fileLinks' | 'ocr' | 'transcription' | 'uploads'>
> = async (app, { files, fileLinks, ocr, transcription, uploads }) => {
  await app.register(multipart, {
    limits: { fileSize: uploads.maxBytes, files: 1, fields: 20, fieldSize: 1024 * 1024 },
  });
  await app.register(fileRoutes, { files, links: fileLinks, uploads });
  await app.register(ocrRoutes, { ocr, uploads });
  await app.register(transcriptRoutes, { transcription, uploads });
};

/** Every resource's routes, each handed the use-case services it calls. */
export const apiRoutes: FastifyPluginAsync<ApiServices> = async (app, services) => {
  const { status, metrics, models, keys, accounts, requestLog, replay, settings, chat, documents, responses } =
    services;
  const { completions, fim, embeddings, classifiers, files, fileLinks, ocr, transcription, uploads } = services;
  const { imageGeneration, imageAnalysis, batches, evals, agents, conversations, localModels, mcp } = services;
  await app.register(statusRoutes, { status });
  await app.register(healthRoutes, { status });
  await app.register(metricsRoutes, { metrics });
  await app.register(modelsRoutes, { models });
  await app.register(mistralFineTuningRoutes, { models });
  await app.register(accountRoutes, { keys, accounts });
  await app.register(consoleRoutes, { requestLog, replay });
  await app.register(settingsRoutes, { settings });
  await app.register(mcpRoutes, { mcp });
  await app.register(chatRoutes, { chat, documents, ids: services.ids });
  await app.register(responsesRoutes, { responses });
  await app.register(completionRoutes, { completions });
  await app.register(fimRoutes, { fim });
  await app.register(classifierRoutes, { classifiers });
  await app.register(platformRoutes);
  await app.register(embeddingRoutes, { embeddings });
  await app.register(uploadRoutes, { files, fileLinks, ocr, transcription, uploads });
  await app.register(libraryRoutes);
  await app.register(imageGenerationRoutes, { imageGeneration });
  await app.register(imageAnalysisRoutes, { imageAnalysis });
  await app.register(speechRoutes);
  await app.register(batchRoutes, { batches });
  await app.register(mistralBatchJobsRoutes, { batches });
  await app.register(evalsRoutes, { evals });
  await app.register(agentRoutes, { agents, chat, models, ids: services.ids });
  await app.register(conversationRoutes, { conversations });
  await app.register(localModelsRoutes, { localModels });
};
