import type { GatewayOptions } from '../../config/gateway-options.js';
import type { Database } from '../../store/database.js';
import type { ProviderInstance } from '../../providers/contracts/provider-instance.js';
import type { AccountService } from '../account/account-service.js';
import type { KeyService } from '../account/key-service.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { RateLimiter } from '../account/rate-limiter.js';
import type { RequestLog } from '../request-log/request-log.js';
import type { ConfigFileReload } from '../settings/config-file-reload.js';
import type { OutageWarnings } from '../errors/outage-warnings.js';
import type { RouteRunner } from '../routing/route-runner.js';
import type { ProviderBreakers } from '../routing/provider-breakers.js';
import type { StartupState } from './startup-state.js';
import type { GatewayStatus } from '../status/gateway-status.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { UsageLedger } from '../billing/usage-ledger.js';
import type { BillingService } from '../billing/billing-service.js';
import type { FileStore } from '../files/file-store.js';
import type { BatchRunner } from '../batch/batch-runner.js';
import type { BatchesRepository } from '../../store/batches-repository.js';
import type { AgentsService } from '../agents/agents-service.js';
import type { ConversationsService } from '../agents/conversations-service.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import type { StorageQuotas } from '../account/storage-quotas.js';
import type { LocalModels } from '../local-models/local-models.js';
import type { ResponsesService } from '../responses/responses-service.js';
import type { ChatService } from '../chat/chat-service.js';
import type { CompletionService } from '../completions/completion-service.js';
import type { FimService } from '../fim/fim-service.js';
import type { EmbeddingService } from '../embeddings/embedding-service.js';
import type { OcrService } from '../ocr/ocr-service.js';
import type { DocumentService } from '../documents/document-service.js';
import type { ImageAnalysisService } from '../vision/image-analysis-service.js';
import type { ImageGenerationService } from '../images/image-generation-service.js';
import type { TranscriptionService } from '../audio/transcription-service.js';
import type { SettingsService } from '../settings/settings-service.js';

/** Everything the routes use, built once per gateway by buildGateway and passed down. */
export interface GatewayServices {
  options: GatewayOptions;
  db: Database;
  keys: KeyService;
  accounts: AccountService;
  ledger: UsageLedger;
  billing: BillingService;
  rateLimiter: RateLimiter;
  requestLog: RequestLog;
  /** Reads the config file again (SIGHUP); team mode tells the other instances. */
  configReload: ConfigFileReload;
  /** Rate-limited log lines for a database or Redis that does not answer. */
  outages: OutageWarnings;
  providers: ReadonlyMap<string, ProviderInstance>;
  models: ModelRegistry;
  runner: RouteRunner;
  breakers: ProviderBreakers;
  startup: StartupState;
  status: GatewayStatus;
  metrics: GatewayMetrics;
  files: FileStore;
  batches: BatchesRepository;
  batchRunner: BatchRunner;
  agents: AgentsService;
  conversations: ConversationsService;
  /** Where client-given URLs may be fetched from (SSRF guard). */
  urlFetchPolicy: AddressPolicy;
  /** What one key may keep stored (files, agents, conversations, batches). */
  quotas: StorageQuotas;
  localModels: LocalModels;
  /** The use cases, one service each: a route parses, calls one of these, and shapes the answer. */
  chat: ChatService;
  completions: CompletionService;
  fim: FimService;
  embeddings: EmbeddingService;
  ocr: OcrService;
  documents: DocumentService;
  imageAnalysis: ImageAnalysisService;
  imageGeneration: ImageGenerationService;
  transcription: TranscriptionService;
  responses: ResponsesService;
  settings: SettingsService;
}
