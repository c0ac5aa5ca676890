import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const StatusResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('starting')]),
  response_ms: Type.Number(),
  version: Type.String(),
  uptime_seconds: Type.Number(),
  checks: Type.Object({ asr: Type.Boolean(), ocr: Type.Boolean() }),
  engines: Type.Optional(Type.Record(Type.String(), Type.Object({ state: Type.String(), detail: Type.Optional(Type.String()) }))),
});

/** GET /status: availability and the real state of the OCR and speech engines; 503 while starting. */
export const statusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/status',
    { config: { auth: 'none', unlogged: true }, schema: { tags: ['status'], summary: 'Gateway status', security: [], response: { 200: StatusResponse, 503: StatusResponse } } },
    async (request, reply) => {
      const { startup, models, options } = app.services;
      const canServe = (capability: 'ocr' | 'transcription') =>
        models.withCapability(capability).some((route) => (route.provider.modelStatus?.(route.upstreamModel) ?? route.provider.status()).state !== 'unavailable' && route.provider.status().state !== 'unavailable');
      const engines = Object.fromEntries([...app.services.providers.values()].map((provider) => [provider.id, provider.status()]));
      const status = startup.status;
      if (status === 'starting') reply.status(503).header('Retry-After', '10');
      return {
        status,
        response_ms: Number((Number(process.hrtime.bigint() - request.startedAt) / 1e6).toFixed(3)),
        version: options.version,
        uptime_seconds: Math.round(startup.uptimeSeconds * 1000) / 1000,
        checks: { asr: canServe('transcription'), ocr: canServe('ocr') && status === 'ok' },
        engines,
      };
    },
  );
};
