import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { hostname } from 'node:os';
import type { GatewayOptions } from './config/gateway-options.js';
import {
  composeGateway,
  type BuildExtras,
  type ComposedGateway,
  type GatewayControl,
} from './core/lifecycle/compose-gateway.js';
import { logRecordFields } from './core/lifecycle/log-record-fields.js';
import { generatedInstanceId } from './core/status/gateway-status.js';
import { registerAuthentication } from './http/authentication.js';
import { registerBatchLineAborts } from './http/batch-line-aborts.js';
import { registerCompression } from './http/compression.js';
import { registerRequestBody } from './http/request-body.js';
import { registerCors } from './http/cors.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerMetricsHooks } from './http/metrics-hooks.js';
import { registerRequestContext, requestIdOf } from './http/request-context.js';
import { registerRequestTracing } from './http/request-tracing.js';
import { registerUsageRecorder } from './http/usage-recorder.js';
import { registerSpendReservation } from './http/spend-reservation.js';
import { validationController } from './http/validation.js';
import { answerUnservedRequests, clientErrorHandler, frameworkErrorHandler } from './http/framework-errors.js';
import { registerRequestFraming } from './http/request-framing.js';
import './http/fastify-augment.js';
import { IdGenerator } from './core/ids/id-generator.js';
import { registerOpenApi } from './http/openapi.js';
import { registerConsolePage } from './http/console-page.js';
import { apiRoutes } from './api/index.js';

export type { BuildExtras, GatewayControl };

/** A built gateway: the Fastify instance (never listening) and the operator's handle on it. */
export interface Gateway {
  app: FastifyInstance;
  control: GatewayControl;
}

/**
 * The gateway as a Fastify instance, never listening: cli.ts and the Electron main call listen.
 * Engines start warming in the background; /status says `starting` until they are ready.
 * No Owner key is generated here: the caller asks `control.keys.ownerAccess` once it listens.
 */
export async function buildGateway(options: GatewayOptions, extras: BuildExtras = {}): Promise<Gateway> {
  const instanceId = options.server.instanceId ?? generatedInstanceId();
  const ids = new IdGenerator();
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
    genReqId: requestIdOf(ids),
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

  const gateway = await composeGateway(
    options,
    instanceId,
    {
      log: app.log,
      ids,
      inject: (request) => app.inject(request),
      send: async (request) => {
        const response = await app.inject({ ...request, payloadAsStream: true });
        // Its routes hear a caller that goes away as a closed response, as they would from a socket.
        const close = () => response.raw.res.destroy();
        if (request.signal?.aborted) close();
        else request.signal?.addEventListener('abort', close, { once: true });
        return { statusCode: response.statusCode, body: response.stream() };
      },
    },
    extras,
  );
  await registerHooks(app, options, gateway);
  const { useCases } = gateway;
  await app.register(apiRoutes, {
    ...useCases,
    ids,
    uploads: {
      files: useCases.files,
      maxBytes: options.server.bodyLimitBytes,
      idleTimeoutMs: options.server.bodyIdleTimeoutMs,
    },
  });
  await registerConsolePage(app, options.consoleDir);

  app.addHook('onReady', () => gateway.ready());
  app.addHook('preClose', () => gateway.drain());
  app.addHook('onClose', () => gateway.release());
  return { app, control: gateway.control };
}

/** The cross-cutting plugins every route passes through, in the order ARCHITECTURE.md describes. */
async function registerHooks(app: FastifyInstance, options: GatewayOptions, gateway: ComposedGateway): Promise<void> {
  const { useCases, billing } = gateway;
  registerRequestContext(app);
  registerRequestTracing(app, gateway.tracing);
  registerRequestFraming(app, options.host, useCases.settings.allowedHosts);
  registerErrorHandler(app, gateway.outages);
  await registerCors(app, useCases.settings.corsOrigins);
  registerAuthentication(app, {
    keys: useCases.keys,
    rateLimiter: gateway.rateLimiter,
    accounts: useCases.accounts,
    metricsToken: options.server.metricsToken,
  });
  registerUsageRecorder(app, {
    billing,
    requestLog: useCases.requestLog,
    settings: useCases.settings,
    startSecrets: [options.adminKey, ...options.providers.map((provider) => provider.api_key)],
    keepBodies: useCases.settings.requestLogBodies,
  });
  registerMetricsHooks(app, useCases.metrics, useCases.models);
  registerSpendReservation(app, billing);
  registerBatchLineAborts(app, gateway.batchLines);
  await registerCompression(app, options.server.compressionThresholdBytes);
  registerRequestBody(app, {
    inflatedLimitBytes: options.server.inflatedBodyLimitBytes,
    idleMs: options.server.bodyIdleTimeoutMs,
  });
  await registerOpenApi(app, options.version);
}
