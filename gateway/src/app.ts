import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { GatewayOptions } from './config/gateway-options.js';
import { loadGatewayOptions } from './config/load-options.js';
import { AccountService } from './core/account/account-service.js';
import { FileStore } from './core/files/file-store.js';
import type { GatewayServices } from './core/lifecycle/gateway-services.js';
import { KeyService } from './core/account/key-service.js';
import { ModelRegistry } from './core/routing/model-registry.js';
import { SettingsService } from './core/settings/settings-service.js';
import { SettingsStore } from './core/settings/settings-store.js';
import { makePrivateFolder } from './store/private-folder.js';
import { SettingsRepository } from './store/settings-repository.js';
import { createProvider, createProviders, type ProviderPoolContext } from './core/routing/provider-pool.js';
import { LocalRateLimiter } from './core/account/rate-limiter.js';
import { TeamMode } from './core/team/team-mode.js';
import { storedSpend } from './core/billing/stored-spend.js';
import { RequestLog } from './core/request-log/request-log.js';
import { RouteRunner } from './core/routing/route-runner.js';
import { RouteHealth } from './core/routing/route-health.js';
import { ProviderBreakers } from './core/routing/provider-breakers.js';
import { StartupState } from './core/lifecycle/startup-state.js';
import { logRecordFields } from './core/lifecycle/log-record-fields.js';
import { GatewayStatus, generatedInstanceId } from './core/status/gateway-status.js';
import { GatewayMetrics } from './core/metrics/gateway-metrics.js';
import { registerMetricsHooks } from './http/metrics-hooks.js';
import { UsageLedger } from './core/billing/usage-ledger.js';
import { usageJournalAt } from './core/billing/usage-journal.js';
import { databaseWriteErrorReporter } from './core/errors/database-write-errors.js';
import { ConfigFileReload, type ConfigFileContent } from './core/settings/config-file-reload.js';
import { OutageWarnings } from './core/errors/outage-warnings.js';
import { BillingService } from './core/billing/billing-service.js';
import { registerAuthentication } from './http/authentication.js';
import { registerCompression } from './http/compression.js';
import { registerRequestDecompression } from './http/request-decompression.js';
import { registerBodyIdleTimeout } from './http/stalled-bodies.js';
import { registerCors } from './http/cors.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerHostGuard } from './http/host-guard.js';
import { clientRequestId, newRequestId, registerRequestContext } from './http/request-context.js';
import { registerUsageRecorder } from './http/usage-recorder.js';
import { registerSpendReservation } from './http/spend-reservation.js';
import { validationController } from './http/validation.js';
import {
  answerUnservedRequests,
  clientErrorHandler,
  frameworkErrorHandler,
  registerRequestFraming,
} from './http/framework-errors.js';
import './http/fastify-augment.js';
import { registerOpenApi } from './http/openapi.js';
import { registerConsolePage } from './http/console-page.js';
import { PROVIDER_FACTORIES } from './providers/index.js';
import type { ProviderFactory } from './providers/contracts/provider-instance.js';
import { AccountRepository } from './store/account-repository.js';
import { openDatabase } from './store/database.js';
import { RequestLogRepository } from './store/request-log-repository.js';
import { FilesRepository } from './store/files-repository.js';
import { KeysRepository } from './store/keys-repository.js';
import { ModelStateRepository } from './store/model-state-repository.js';
import { UsageRepository } from './store/usage-repository.js';
import { BatchesRepository } from './store/batches-repository.js';
import { AgentsRepository } from './store/agents-repository.js';
import { BatchRunner } from './core/batch/batch-runner.js';
import { inProcessBatchExecutor } from './core/batch/in-process-batch-executor.js';
import { openBatchQueue } from './core/batch/open-batch-queue.js';
import { ConversationsRepository } from './store/conversations-repository.js';
import { AgentsService } from './core/agents/agents-service.js';
import { ConversationsService } from './core/agents/conversations-service.js';
import { hostname } from 'node:os';
import { apiRoutes } from './api/index.js';
import { AddressPolicy } from './core/url-fetch/address-policy.js';
import { upstreamFileFetcher } from './core/url-fetch/fetch-upstream-file.js';
import { SecretBox } from './core/settings/secret-box.js';
import { loadSecretKey } from './core/settings/secret-key.js';
import { LocalModels } from './core/local-models/local-models.js';
import { ModelDownloadsRepository } from './store/model-downloads-repository.js';
import { ResponsesService } from './core/responses/responses-service.js';
import { ChatService } from './core/chat/chat-service.js';
import { CompletionService } from './core/completions/completion-service.js';
import { FimService } from './core/fim/fim-service.js';
import { EmbeddingService } from './core/embeddings/embedding-service.js';
import { OcrService } from './core/ocr/ocr-service.js';
import { OcrAdmission } from './core/ocr/ocr-admission.js';
import { StorageQuotas } from './core/account/storage-quotas.js';
import { DocumentService } from './core/documents/document-service.js';
import { ImageAnalysisService } from './core/vision/image-analysis-service.js';
import { ImageGenerationService } from './core/images/image-generation-service.js';
import { TranscriptionService } from './core/audio/transcription-service.js';
import { ResponsesRepository } from './store/responses-repository.js';
import { MediaDecoder } from './media/media-decoder.js';
import { WorkPool } from './media/work-pool/work-pool.js';
import { ClientSchemaChecker } from './core/json/client-schema-checker.js';

export type Gateway = FastifyInstance;

export interface BuildExtras {
  /** Extra provider kinds (tests register engines whose timing they control). */
  providerFactories?: Record<string, ProviderFactory>;
  /** Reads the config file again for a reload (default: the same file and data folder, this process's environment). */
  reloadOptions?: () => Promise<ConfigFileContent>;
}

/**
 * What the gateway writes at the top of its data folder: the database with SQLite's side files,
 * secret.key, the usage journals (and their claims), the files and models folders. Anything else
 * there (the desktop app's Electron profile, the user's own files) is not its to change.
 */
const DATA_FOLDER_ENTRIES = /^(switchyard\.db(-wal|-shm|-journal)?|secret\.key|usage-journal[-.].*|files|models)$/;

/**
 * The gateway as a Fastify instance, never listening: cli.ts and the Electron main call listen.
 * Engines start warming in the background; /status says `starting` until they are ready.
 * No Owner key is generated here: the caller asks `services.keys.ownerAccess` once it listens.
 */
const NOT_SPACE = /\S/;

export async function buildGateway(options: GatewayOptions, extras: BuildExtras = {}): Promise<FastifyInstance> {
  const instanceId = options.server.instanceId ?? generatedInstanceId();
  const app = Fastify({
    logger:
      options.logLevel === 'silent'
        ? false
        : {
            level: options.logLevel,
            base: { pid: process.pid, hostname: hostname(), instance_id: instanceId },
            formatters: { log: logRecordFields },
          },
    bodyLimit: options.server.bodyLimitBytes,
    requestIdHeader: false,
    genReqId: (request) => clientRequestId(request.headers['x-request-id']) ?? newRequestId(),
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    requestTimeout: options.server.requestTimeoutMs,
    keepAliveTimeout: options.server.keepAliveTimeoutMs,
    // Node checks the headers and request timeouts on this interval, so it bounds how late a slow client is cut off.
    // No Host on HTTP/1.1 is answered by registerRequestFraming in the error shape, not by Node's bare 400.
    http: {
      requireHostHeader: false,
      headersTimeout: options.server.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(options.server.headersTimeoutMs / 4))),
    },
    routerOptions: { maxParamLength: 500 },
    forceCloseConnections: 'idle',
    schemaController: validationController(),
  }).withTypeProvider<TypeBoxTypeProvider>();
  answerUnservedRequests(app.server);

  // Every body is JSON or multipart; anything else is answered with 415. An empty JSON body (SDKs
  // send one with POST .../cancel and .../archive) counts as no body.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('jsonText', null);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A test for a non-space character stops at the first one; trim() copied every body.
    if (typeof body !== 'string' || !NOT_SPACE.test(body)) return done(null, undefined);
    request.jsonText = body;
    return parseJson(request, body, done);
  });

  // Team mode connects first: a Redis that does not answer stops the start before anything is opened.
  const outages = new OutageWarnings(app.log);
  const team = options.team?.redisUrl
    ? await TeamMode.start(
        { redisUrl: options.team.redisUrl, prefix: options.team.redisPrefix, instanceId },
        app.log,
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
      app.log.warn(
        `${folder} is shared with other users (the sticky bit, or another owner): its modes are left as they are. Give the gateway a folder of its own (GATEWAY_DATA_DIR, GATEWAY_FILES_DIR).`,
      );
    }
  }
  const db = await openDatabase({ dataDir: options.dataDir, url: options.team?.databaseUrl });
  const ledger = new UsageLedger(
    new UsageRepository(db),
    databaseWriteErrorReporter(app.log, outages, {
      duringOutage:
        'usage ledger: the database does not answer; the usage of answered requests is kept in the local journal and written when it is back',
      otherwise: 'usage ledger: could not write usage records; they stay pending and are retried',
    }),
    undefined,
    usageJournalAt(options.dataDir, options.server.instanceId),
    () => outages.recovered('database', 'database is back: the usage kept during the outage is written'),
    // On PostgreSQL, shared by the instances, an answer waits for its commit, so every instance's reads include it.
    db.dialect === 'sqlite' ? 'journal' : 'commit',
  );
  await ledger.load();
  const keys = new KeyService(new KeysRepository(db));
  await keys.ensureAdminKey(options.adminKey);
  const providerFactories = { ...PROVIDER_FACTORIES, ...extras.providerFactories };
  const urlFetchPolicy = new AddressPolicy(options.server.urlFetchAllow);
  const secretKey = await loadSecretKey(options.dataDir, options.secretKey);
  if (options.team?.databaseUrl && !options.secretKey) {
    app.log.warn(
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
  const providerContext: ProviderPoolContext = {
    dataDir: options.dataDir,
    media,
    fetchUpstreamFile: upstreamFileFetcher(urlFetchPolicy),
    source: options.configPath ?? 'built-in defaults',
    logger: (providerId) => {
      const child = app.log.child({ provider: providerId });
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
    isUpstream: (id) => services.settings.isUpstream(id),
    lastTest: (id) => services.settings.lastCheck(id),
  });
  const models = new ModelRegistry(
    options.models,
    providers,
    new ModelStateRepository(db),
    (providerId) => breakers.for(providerId).state,
    health,
  );
  await models.reloadState();
  const batches = new BatchesRepository(db);
  const agentsRepository = new AgentsRepository(db);
  const conversationsRepository = new ConversationsRepository(db);
  const filesRepository = new FilesRepository(db);
  const quotas = new StorageQuotas(options.quotas, {
    files: filesRepository,
    agents: agentsRepository,
    conversations: conversationsRepository,
    batches,
  });
  const files = new FileStore(filesRepository, options.filesDir, quotas, options.server.uploadConcurrencyPerKey);
  const agents = new AgentsService(agentsRepository, models, quotas);
  const runBatchRequest = inProcessBatchExecutor((request) => app.inject(request));
  // After the migrations: pg-boss creates its own schema on PostgreSQL.
  const batchQueue = await openBatchQueue(options.server, options.team?.databaseUrl, app.log);
  const startup = new StartupState();
  const metrics = new GatewayMetrics(providers, breakers);
  const runner = new RouteRunner(models, app.log, breakers, metrics, { deadlineMs: options.server.requestDeadlineMs });
  /** What the use cases that load client documents need. */
  const ocrAdmission = new OcrAdmission({
    concurrency: options.server.ocrConcurrency,
    perKey: Math.min(options.server.ocrConcurrencyPerKey, options.server.ocrConcurrency),
  });
  const schemas = new ClientSchemaChecker(options.server.clientSchemas);
  const chat = new ChatService(models, runner, options.server.clientSchemas);
  const useCaseDeps = { chat, models, runner, files, options, urlFetchPolicy, ocrAdmission, media, schemas };
  const accounts = new AccountService(
    new AccountRepository(db),
    ledger,
    options.account,
    Date.now,
    team && (() => team.spendReservations(storedSpend(new AccountRepository(db), new UsageRepository(db)))),
  );
  await accounts.load();
  const services: GatewayServices = {
    options,
    db,
    keys,
    ledger,
    accounts,
    billing: new BillingService(accounts, ledger, models, options.account.defaultCompletionTokens, (error) =>
      app.log.error({ err: error }, 'could not settle a spend reservation'),
    ),
    rateLimiter: team?.rateLimiter ?? new LocalRateLimiter(),
    outages,
    configReload: new ConfigFileReload(
      extras.reloadOptions ??
        (() =>
          loadGatewayOptions({
            env: process.env,
            overrides: { configPath: options.configPath, dataDir: options.dataDir },
          })),
      (file) => services.settings.useConfigFile(file),
      app.log,
    ),
    requestLog: new RequestLog(
      options.server.requestLogSize,
      {
        store: new RequestLogRepository(db),
        retentionDays: () => services.settings.live().requestLogRetentionDays,
        onWriteError: databaseWriteErrorReporter(app.log, outages, {
          duringOutage:
            'request log: the database does not answer; entries wait in memory and are written when it is back',
          otherwise: 'request log: could not store entries; they are retried with the next ones',
        }),
      },
      instanceId,
    ),
    providers,
    models,
    breakers,
    metrics,
    runner,
    startup,
    status: new GatewayStatus({
      options,
      startup,
      models,
      providers,
      breakers,
      db,
      instanceId,
      team,
      health,
      isUpstream: (id) => services.settings.isUpstream(id),
      lastTest: (id) => services.settings.lastCheck(id),
    }),
    files,
    batches,
    batchRunner: new BatchRunner(batches, files, keys, runBatchRequest, batchQueue, app.log),
    agents,
    conversations: new ConversationsService(conversationsRepository, agents, models, quotas, chat),
    urlFetchPolicy,
    quotas,
    localModels: new LocalModels(
      { dataDir: options.dataDir, hub: options.hub },
      models,
      new ModelDownloadsRepository(db),
      app.log,
    ),
    chat,
    completions: new CompletionService(models, runner),
    fim: new FimService(models, runner),
    embeddings: new EmbeddingService(models, runner),
    ocr: new OcrService(useCaseDeps),
    documents: new DocumentService(useCaseDeps),
    imageAnalysis: new ImageAnalysisService(useCaseDeps),
    imageGeneration: new ImageGenerationService(models, runner, files),
    transcription: new TranscriptionService(models, runner),
    responses: new ResponsesService(models, runner, new ResponsesRepository(db), options.server.clientSchemas),
    settings: new SettingsService({
      options,
      store: new SettingsStore(new SettingsRepository(db), {
        box: new SecretBox(secretKey.key),
        source: secretKey.source,
      }),
      models,
      providers,
      breakers,
      health,
      providerTypes: Object.keys(providerFactories),
      createProvider: (config) => createProvider(config, providerFactories, providerContext),
      reportProviderError: (providerId, error) =>
        app.log.error({ provider: providerId, err: error }, 'provider settings could not be applied'),
    }),
  };
  await services.requestLog.load();
  await services.settings.reload();
  await team?.join({ ...services, providerIds: [...providers.keys()] });
  await team?.shareRequestLog(services.requestLog);
  await team?.shareConfigReloads(services.configReload);
  app.decorate('services', services);

  registerRequestContext(app);
  registerRequestFraming(app);
  registerErrorHandler(app);
  const live = () => services.settings.live();
  registerHostGuard(app, options.host, () => live().allowedHosts);
  await registerCors(app, () => live().corsOrigins);
  registerAuthentication(app);
  registerUsageRecorder(app, () => live().requestLogBodies);
  registerMetricsHooks(app);
  registerSpendReservation(app);
  await registerCompression(app, options.server.compressionThresholdBytes);
  registerBodyIdleTimeout(app, options.server.bodyIdleTimeoutMs);
  registerRequestDecompression(app, options.server.inflatedBodyLimitBytes);
  await registerOpenApi(app, options.version);
  await app.register(apiRoutes, { uploadLimitBytes: options.server.bodyLimitBytes });
  await registerConsolePage(app, options.consoleDir);

  app.addHook('onReady', async () => {
    await services.batchRunner
      .start()
      .catch((error: unknown) => app.log.error({ err: error }, 'the batch runner could not start'));
    await services.localModels
      .start()
      .catch((error: unknown) => app.log.error({ err: error }, 'local models failed to start'));
    if (!options.server.warmEngines) return;
    const routed = new Set(models.all().map((route) => route.provider));
    // A stop while engines warm (Ctrl+C reaches the engines' child processes too) is not an engine failure.
    void services.startup.warm(routed, (providerId, error) => {
      if (!closing) app.log.error({ provider: providerId, err: error }, 'engine failed to warm up');
    });
  });
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    await services.batchRunner.stop(options.server.shutdownGraceMs);
    await services.localModels.close();
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled([...providers.values()].map((provider) => provider.close()));
    await media.pool.close();
    await schemas.close();
    await ledger
      .close()
      .catch((error: unknown) => app.log.error({ err: error }, 'usage records could not be written at close'));
    await services.requestLog.flush();
    await db.close();
    await team?.close();
  });
  return app;
}
