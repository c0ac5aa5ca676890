import type { GatewayOptions } from '../../config/gateway-options.js';
import { loadGatewayOptions } from '../../config/load-options.js';
import { needsTraceSdk } from '../../config/trace-settings.js';
import { PROVIDER_FACTORIES } from '../../providers/index.js';
import type { ProviderFactory } from '../../providers/contracts/provider-instance.js';
import { NativeEngines } from '../../providers/_shared/native-engines.js';
import { MediaDecoder } from '../../media/media-decoder.js';
import { WorkPool } from '../../media/work-pool/work-pool.js';
import { AccountRepository } from '../../store/account-repository.js';
import { AgentsRepository } from '../../store/agents-repository.js';
import { BatchesRepository } from '../../store/batches-repository.js';
import { EvalsRepository } from '../../store/evals-repository.js';
import { ConversationsRepository } from '../../store/conversations-repository.js';
import { openDatabase, type Database } from '../../store/database.js';
import { FilesRepository } from '../../store/files-repository.js';
import { KeysRepository } from '../../store/keys-repository.js';
import { ModelDownloadsRepository } from '../../store/model-downloads-repository.js';
import { ModelStateRepository } from '../../store/model-state-repository.js';
import { makePrivateFolder } from '../../store/private-folder.js';
import { RequestLogRepository } from '../../store/request-log-repository.js';
import { ResponsesRepository } from '../../store/responses-repository.js';
import { SettingsRepository } from '../../store/settings-repository.js';
import { UsageRepository } from '../../store/usage-repository.js';
import { AccountService } from '../account/account-service.js';
import { KeyService } from '../account/key-service.js';
import { LocalRateLimiter, type RateLimiter } from '../account/rate-limiter.js';
import { StorageQuotas } from '../account/storage-quotas.js';
import { AgentsService } from '../agents/agents-service.js';
import { ConversationsService } from '../agents/conversations-service.js';
import { TranscriptionService } from '../audio/transcription-service.js';
import { BatchRunner } from '../batch/batch-runner.js';
import { BatchService } from '../batch/batch-service.js';
import { BatchWork } from '../batch/batch-work.js';
import {
  inProcessBatchExecutor,
  type InProcessBatchExecutor,
  type InProcessRequest,
  type InProcessResponse,
} from '../batch/in-process-batch-executor.js';
import { openBatchQueue } from '../batch/open-batch-queue.js';
import { BillingService, RequestBilling } from '../billing/billing-service.js';
import { storedSpend } from '../billing/stored-spend.js';
import { usageJournalAt } from '../billing/usage-journal.js';
import { UsageLedger } from '../billing/usage-ledger.js';
import { ChatService } from '../chat/chat-service.js';
import { CompletionService } from '../completions/completion-service.js';
import { DocumentService } from '../documents/document-service.js';
import { EmbeddingService } from '../embeddings/embedding-service.js';
import { ResponseCache } from '../cache/response-cache.js';
import { ResponseCacheRepository } from '../../store/response-cache-repository.js';
import { DEFAULT_EMBEDDING_MODEL } from '../../wire/default-models.js';
import { ClassifierService } from '../classifiers/classifier-service.js';
import { GuardrailService } from '../guardrails/guardrail-service.js';
import { EvalRunner } from '../evals/eval-runner.js';
import { EvalsService } from '../evals/evals-service.js';
import { databaseWriteErrorReporter } from '../errors/database-write-errors.js';
import { OutageWarnings } from '../errors/outage-warnings.js';
import { FileStore } from '../files/file-store.js';
import { SignedFileLinks } from '../files/signed-file-links.js';
import { FimService } from '../fim/fim-service.js';
import { ImageGenerationService } from '../images/image-generation-service.js';
import { ClientSchemaChecker } from '../json/client-schema-checker.js';
import { LocalModels } from '../local-models/local-models.js';
import { McpServerStore } from '../mcp/mcp-server-store.js';
import { McpService } from '../mcp/mcp-service.js';
import { registerDeploymentMetrics } from '../metrics/deployment-metrics.js';
import { GatewayMetrics } from '../metrics/gateway-metrics.js';
import { OcrAdmission } from '../ocr/ocr-admission.js';
import { OcrService } from '../ocr/ocr-service.js';
import { ReplayService, type SendThroughGateway } from '../request-log/replay-service.js';
import { RequestLog } from '../request-log/request-log.js';
import { ResponsesService } from '../responses/responses-service.js';
import { ModelRegistry } from '../routing/model-registry.js';
import { createProvider, createProviders, type ProviderPoolContext } from '../routing/provider-pool.js';
import { ProviderBreakers } from '../routing/provider-breakers.js';
import { RouteHealth } from '../routing/route-health.js';
import { RouteRunner } from '../routing/route-runner.js';
import { ConfigFileReload, type ConfigFileContent } from '../settings/config-file-reload.js';
import { SecretBox } from '../settings/secret-box.js';
import { loadSecretKey } from '../settings/secret-key.js';
import { SettingsService } from '../settings/settings-service.js';
import { SettingsStore } from '../settings/settings-store.js';
import { GatewayStatus } from '../status/gateway-status.js';
import { TeamMode } from '../team/team-mode.js';
import { GatewayTracing } from '../tracing/gateway-tracing.js';
import type { IdGenerator } from '../ids/id-generator.js';
import { AddressPolicy } from '../url-fetch/address-policy.js';
import { upstreamFileFetcher } from '../url-fetch/fetch-upstream-file.js';
import { ImageAnalysisService } from '../vision/image-analysis-service.js';
import { StartupState } from './startup-state.js';

interface LogMethod {
  (object: object, message?: string): void;
  (message: string): void;
}

/** The gateway's logger (Fastify's pino): what composition and the services it builds log with. */
export interface GatewayLogger {
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  child(bindings: Record<string, unknown>): GatewayLogger;
}

/** What composition needs of the Fastify instance it is built for. */
export interface GatewayHost {
  log: GatewayLogger;
  /** The ids every request makes (its request id is made by the host). */
  ids: IdGenerator;
  /** Runs a request through the gateway's own routes without a socket (batch lines). */
  inject(request: InProcessRequest): Promise<InProcessResponse>;
  /** The same, its answer read as it is written (replays time a stream's first frame). */
  send: SendThroughGateway;
}

export interface BuildExtras {
  /** Extra provider kinds (tests register engines whose timing they control). */
  providerFactories?: Record<string, ProviderFactory>;
  /** Reads the config file again for a reload (default: the same file and data folder, this process's environment). */
  reloadOptions?: () => Promise<ConfigFileContent>;
  /** Native engines to share with other gateways of the process (default: this gateway's own). */
  nativeEngines?: NativeEngines;
}

/**
 * The operator's handle on a built gateway (serve-gateway.ts, the Electron main, tests); no route
 * sees it.
 */
export interface GatewayControl {
  /** Readiness answers 503 `draining` from now on: the first step of a graceful stop. */
  beginDrain(): void;
  /** Reads the config file again (SIGHUP); team mode tells the other instances. */
  configReload: ConfigFileReload;
  /** The keys, for the Owner key once the gateway listens. */
  keys: KeyService;
  db: Database;
  /** Rate-limited log lines for a database or Redis that does not answer. */
  outages: OutageWarnings;
}

/** Everything one gateway is made of, built once by composeGateway and handed out by app.ts. */
export type ComposedGateway = Awaited<ReturnType<typeof composeGateway>>;

/**
 * What the gateway writes at the top of its data folder: the database with SQLite's side files,
 * secret.key, the usage journals (and their claims), the files and models folders. Anything else
 * there (the desktop app's Electron profile, the user's own files) is not its to change.
 */
const DATA_FOLDER_ENTRIES = /^(switchyard\.db(-wal|-shm|-journal)?|secret\.key|usage-journal[-.].*|files|models)$/;

/** Builds every service of one gateway in start order: team mode, the data folders, the database, then the use cases. */
export async function composeGateway(
  options: GatewayOptions,
  instanceId: string,
  host: GatewayHost,
  extras: BuildExtras = {},
) {
  const { log } = host;
  // Team mode connects first: a Redis that does not answer stops the start before anything is opened.
  const outages = new OutageWarnings(log);
  const team = options.team?.redisUrl
    ? await TeamMode.start(
        { redisUrl: options.team.redisUrl, prefix: options.team.redisPrefix, instanceId },
        log,
        outages,
      )
    : undefined;
  // The database, uploads, journals, keys and models are the user's alone, also in a folder an
  // earlier version made with looser modes.
  for (const [folder, ownEntries] of [
    [options.dataDir, DATA_FOLDER_ENTRIES],
    [options.filesDir, /^/],
  ] as const) {
    if ((await makePrivateFolder(folder, (name) => ownEntries.test(name))) === 'shared') {
      log.warn(
        `${folder} is shared with other users (the sticky bit, or another owner): its modes are left as they are. Give the gateway a folder of its own (GATEWAY_DATA_DIR, GATEWAY_FILES_DIR).`,
      );
    }
  }
  const db = await openDatabase({ dataDir: options.dataDir, url: options.team?.databaseUrl });
  const ledger = new UsageLedger(
    new UsageRepository(db),
    databaseWriteErrorReporter(log, outages, {
      duringOutage:
        'usage ledger: the database does not answer; the usage of answered requests is kept in the local journal and written when it is back',
      otherwise: 'usage ledger: could not write usage records; they stay pending and are retried',
    }),
    undefined,
    usageJournalAt(options.dataDir, options.server.instanceId),
    () => outages.recovered('database', 'database is back: the usage kept during the outage is written'),
    // On PostgreSQL, shared by the instances, an answer waits for its commit, so every instance's reads include it.
    db.dialect === 'sqlite' ? 'journal' : 'commit',
    host.ids,
  );
  await ledger.load();
  const keys = new KeyService(new KeysRepository(db));
  await keys.ensureAdminKey(options.adminKey);
  const providerFactories = { ...PROVIDER_FACTORIES, ...extras.providerFactories };
  const urlFetchPolicy = new AddressPolicy(options.server.urlFetchAllow);
  const secretKey = await loadSecretKey(options.dataDir, options.secretKey);
  if (options.team?.databaseUrl && !options.secretKey) {
    log.warn(
      { secretKey: secretKey.source },
      "GATEWAY_DATABASE_URL without GATEWAY_SECRET_KEY: providers' API keys are encrypted with this data folder's secret.key, which other instances (and this one, if the folder is lost) cannot read. Give every instance the same GATEWAY_SECRET_KEY.",
    );
  }
  const media = new MediaDecoder(
    new WorkPool({
      threads: options.server.mediaWorkers,
      jobTimeoutMs: options.server.mediaJobTimeoutMs,
      jobMemoryMb: options.server.mediaJobMemoryMb,
    }),
  );
  // Settings is built below, and then tells the tracing whether to capture content (readContentCaptureFrom).
  const tracing = new GatewayTracing({
    settings: options.traces,
    version: options.version,
    instanceId,
    log,
    ids: host.ids,
    // The OpenTelemetry SDK is loaded only by a gateway that exports traces or samples them its own way.
    ...(needsTraceSdk(options.traces) ? { sdk: await import('../tracing/trace-sdk.js') } : {}),
  });
  const providerContext: ProviderPoolContext = {
    dataDir: options.dataDir,
    media,
    fetchUpstreamFile: upstreamFileFetcher(urlFetchPolicy),
    source: options.configPath ?? 'built-in defaults',
    engines: extras.nativeEngines ?? new NativeEngines(),
    tracer: tracing,
    logger: (providerId) => {
      const child = log.child({ provider: providerId });
      return {
        info: (message) => child.info(message),
        warn: (message) => child.warn(message),
        error: (message) => child.error(message),
      };
    },
  };
  const providers = createProviders(options.providers, providerFactories, providerContext);
  const breakers = new ProviderBreakers(options.providers);
  // Settings is built below; the health asks it only once requests arrive.
  const health = new RouteHealth({
    breaker: (id) => breakers.snapshot(id),
    answered: (id) => breakers.for(id).answered,
    isUpstream: (id) => settings.isUpstream(id),
    lastTest: (id) => settings.lastCheck(id),
  });
  const models = new ModelRegistry(
    options.models,
    providers,
    new ModelStateRepository(db),
    (providerId) => breakers.for(providerId).state,
    health,
    team?.deploymentUsage(),
  );
  await models.reloadState();
  const batchesRepository = new BatchesRepository(db);
  const agentsRepository = new AgentsRepository(db);
  const conversationsRepository = new ConversationsRepository(db);
  const filesRepository = new FilesRepository(db);
  const quotas = new StorageQuotas(options.quotas, {
    files: filesRepository,
    agents: agentsRepository,
    conversations: conversationsRepository,
    batches: batchesRepository,
  });
  const files = new FileStore(filesRepository, options.filesDir, quotas, options.server.uploadConcurrencyPerKey);
  const agents = new AgentsService(agentsRepository, models, quotas);
  const batchExecutor = inProcessBatchExecutor((request) => host.inject(request));
  // After the migrations: pg-boss creates its own schema on PostgreSQL.
  const batchQueue = await openBatchQueue(options.server, options.team?.databaseUrl, log);
  const startup = new StartupState();
  const metrics = new GatewayMetrics(providers, breakers);
  registerDeploymentMetrics(metrics.registry, () => models.deployments());
  // The OpenTelemetry SDK and its exporters are loaded only by a gateway that exports.
  const otlpMetrics =
    options.otlpMetrics &&
    new (await import('../metrics/otlp-metrics-export.js')).OtlpMetricsExport(
      options.otlpMetrics,
      metrics,
      { version: options.version, instanceId },
      log,
    );
  tracing.countDroppedSpansIn(metrics.registry);
  const runner = new RouteRunner(
    models,
    log,
    breakers,
    metrics,
    { deadlineMs: options.server.requestDeadlineMs },
    tracing,
  );
  /** What the use cases that load client documents need. */
  const ocrAdmission = new OcrAdmission({
    concurrency: options.server.ocrConcurrency,
    perKey: Math.min(options.server.ocrConcurrencyPerKey, options.server.ocrConcurrency),
  });
  const schemas = new ClientSchemaChecker(options.server.clientSchemas);
  // Each needs the other: a request's classifications pass its guardrails, whose moderation rules classify.
  const classifiers: ClassifierService = new ClassifierService(models, runner, (route, meter, options) =>
    guardrails.for(route, meter, options),
  );
  const guardrails = new GuardrailService(classifiers, tracing);
  const embeddings = new EmbeddingService(models, runner, guardrails);
  const responseCache = new ResponseCache(
    team?.responseCache(options.server.responseCacheLimits) ??
      new ResponseCacheRepository(db, options.server.responseCacheLimits),
    async (text, signal) =>
      (await embeddings.embed(DEFAULT_EMBEDDING_MODEL, [text], undefined, new RequestBilling(), signal)).result
        .vectors[0]!,
    databaseWriteErrorReporter(log, outages, {
      duringOutage: 'response cache: the database does not answer; requests go to their providers',
      otherwise: 'response cache: could not read or store an answer; the request went to its provider',
    }),
  );
  const chat = new ChatService(models, runner, options.server.clientSchemas, tracing, responseCache, guardrails);
  const useCaseDeps = {
    chat,
    models,
    runner,
    files,
    options,
    urlFetchPolicy,
    ocrAdmission,
    media,
    schemas,
    tracer: tracing,
  };
  const accounts = new AccountService(
    new AccountRepository(db),
    ledger,
    options.account,
    Date.now,
    team && (() => team.spendReservations(storedSpend(new AccountRepository(db), new UsageRepository(db)))),
  );
  await accounts.load();
  const billing = new BillingService(accounts, ledger, models, options.account.defaultCompletionTokens, (error) =>
    log.error({ err: error }, 'could not settle a spend reservation'),
  );
  const rateLimiter: RateLimiter = team?.rateLimiter ?? new LocalRateLimiter();
  const secrets = { box: new SecretBox(secretKey.key), source: secretKey.source };
  const settings: SettingsService = new SettingsService({
    options,
    store: new SettingsStore(new SettingsRepository(db), secrets),
    models,
    providers,
    breakers,
    health,
    providerTypes: Object.keys(providerFactories),
    createProvider: (config) => createProvider(config, providerFactories, providerContext),
    reportProviderError: (providerId, error) =>
      log.error({ provider: providerId, err: error }, 'provider settings could not be applied'),
  });
  tracing.readContentCaptureFrom(settings);
  const mcp = new McpService({
    fileServers: options.mcpServers,
    store: new McpServerStore(new SettingsRepository(db), secrets),
    urlPolicy: urlFetchPolicy,
    version: options.version,
    path: process.env.PATH,
    log: log.child({ room: 'mcp' }),
    // Each call is a span `execute_tool {tool}` of the request's trace (the request log shows it) and a log line.
    observeCall: (call) => {
      const span = tracing.start(`execute_tool ${call.tool}`, {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.tool,
        'switchyard.mcp.server': call.server,
      });
      return (result) => {
        span?.set('switchyard.mcp.outcome', result.outcome);
        span?.set('switchyard.mcp.truncated', result.truncated);
        if (result.isError) span?.fail(new Error(`MCP tool call ${result.outcome}`));
        span?.end();
        log.info(
          {
            mcpServer: call.server,
            tool: call.tool,
            key: call.keyId,
            outcome: result.outcome,
            durationMs: result.durationMs,
          },
          'MCP tool call',
        );
      };
    },
  });
  const configReload = new ConfigFileReload(
    extras.reloadOptions ??
      (() =>
        loadGatewayOptions({
          env: process.env,
          overrides: { configPath: options.configPath, dataDir: options.dataDir },
        })),
    async (file) => {
      await settings.useConfigFile(file);
      await mcp.useConfigFile(file.mcpServers);
    },
    log,
  );
  const requestLog = new RequestLog(
    options.server.requestLogSize,
    {
      store: new RequestLogRepository(db),
      retentionDays: settings.requestLogRetentionDays,
      onWriteError: databaseWriteErrorReporter(log, outages, {
        duringOutage:
          'request log: the database does not answer; entries wait in memory and are written when it is back',
        otherwise: 'request log: could not store entries; they are retried with the next ones',
      }),
    },
    instanceId,
  );
  const status = new GatewayStatus({
    options,
    startup,
    models,
    providers,
    breakers,
    db,
    instanceId,
    team,
    health,
    isUpstream: (id) => settings.isUpstream(id),
    lastTest: (id) => settings.lastCheck(id),
  });
  const batchRunner = new BatchRunner(batchesRepository, files, keys, batchExecutor.run, batchQueue, log);
  const evalsRepository = new EvalsRepository(db);
  const evalRunner = new EvalRunner(evalsRepository, files, keys, batchExecutor.run, batchQueue, log);
  // Batches and eval runs share the one queue: its concurrency bounds both, restarts and other instances resume both.
  const batchWork = new BatchWork(batchQueue, { batch: batchRunner, eval_run: evalRunner });
  const conversations = new ConversationsService(conversationsRepository, agents, models, quotas, chat, {
    mcp,
    maxSteps: options.server.toolLoopMaxSteps,
  });
  const localModels = new LocalModels(
    { dataDir: options.dataDir, hub: options.hub, githubApi: options.githubApi },
    models,
    new ModelDownloadsRepository(db),
    log,
  );
  /** The use cases, one service each: what routes call (api/index.ts hands each route its own). */
  const useCases = {
    status,
    metrics,
    models,
    keys,
    accounts,
    requestLog,
    replay: new ReplayService({
      requestLog,
      // The console call took the key's rate-limit slot: the request it sends again does not take another.
      keys: {
        issueInternalToken: (keyId) => keys.issueInternalToken(keyId, { admitted: true }),
        revokeInternalToken: (token) => keys.revokeInternalToken(token),
      },
      send: host.send,
    }),
    settings,
    chat,
    responses: new ResponsesService(models, chat, runner, new ResponsesRepository(db), options.server.clientSchemas, {
      mcp,
      maxSteps: options.server.toolLoopMaxSteps,
    }),
    completions: new CompletionService(models, runner, guardrails),
    fim: new FimService(models, runner, guardrails),
    embeddings,
    classifiers,
    files,
    fileLinks: new SignedFileLinks(files, keys),
    ocr: new OcrService(useCaseDeps),
    transcription: new TranscriptionService(models, runner, { files, addresses: urlFetchPolicy }, guardrails),
    imageGeneration: new ImageGenerationService(models, runner, files, guardrails),
    imageAnalysis: new ImageAnalysisService(useCaseDeps),
    documents: new DocumentService(useCaseDeps),
    batches: new BatchService({ files, batches: batchesRepository, batchRunner, quotas, models }),
    evals: new EvalsService({ evals: evalsRepository, runner: evalRunner, files, models, schemas }),
    agents,
    conversations,
    localModels,
    mcp,
  };
  await requestLog.load();
  await settings.reload();
  await mcp.reload();
  await team?.join({
    keys,
    models,
    accounts,
    breakers,
    settings,
    mcp,
    batchWork,
    providerIds: [...providers.keys()],
  });
  await team?.shareRequestLog(requestLog);
  await team?.shareConfigReloads(configReload);

  let closing = false;
  const control: GatewayControl = { beginDrain: () => startup.beginDrain(), configReload, keys, db, outages };
  return {
    useCases,
    /** What the http hooks call besides the use cases. */
    billing,
    tracing,
    rateLimiter,
    outages,
    batchLines: batchExecutor as Pick<InProcessBatchExecutor, 'lineSignal'>,
    control,
    /** Fastify's onReady: the batch queue (batches, eval runs) and local models start, engines warm in the background. */
    async ready() {
      await batchWork.start().catch((error: unknown) => log.error({ err: error }, 'the batch runner could not start'));
      await localModels.start().catch((error: unknown) => log.error({ err: error }, 'local models failed to start'));
      if (!options.server.warmEngines) return;
      const routed = new Set(
        models
          .all()
          .flatMap(
            (route) => route.deployments?.members.map((member) => member.deployment.provider) ?? [route.provider],
          ),
      );
      // A stop while engines warm (Ctrl+C reaches the engines' child processes too) is not an engine failure.
      void startup.warm(routed, (providerId, error) => {
        if (!closing) log.error({ provider: providerId, err: error }, 'engine failed to warm up');
      });
    },
    /** Fastify's preClose: batch lines and eval rows in flight finish (within server.shutdown_grace_ms), downloads stop. */
    async drain() {
      closing = true;
      await batchWork.stop(options.server.shutdownGraceMs);
      await localModels.close();
    },
    /** Fastify's onClose: the OTLP metrics' last export, MCP servers, engines, pools, the ledger, the request log, the database and Redis close. */
    async release() {
      await otlpMetrics?.close();
      await mcp.close();
      await Promise.allSettled([...providers.values()].map((provider) => provider.close()));
      await media.pool.close();
      await schemas.close();
      await ledger
        .close()
        .catch((error: unknown) => log.error({ err: error }, 'usage records could not be written at close'));
      await requestLog.flush();
      await tracing.close();
      await db.close();
      await team?.close();
    },
  };
}
