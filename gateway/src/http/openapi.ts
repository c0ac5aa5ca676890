import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { markPublic } from './console-page.js';
import { describeOperation } from './openapi-operation.js';

const SWITCHYARD_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="32" viewBox="0 0 160 32"><rect width="32" height="32" rx="7" fill="#4f46e5"/><text x="16" y="22" font-size="18" text-anchor="middle" fill="#fff" font-family="sans-serif" font-weight="700">S</text><text x="42" y="22" font-size="18" fill="#fff" font-family="sans-serif" font-weight="700">Switchyard</text></svg>`;

/** /openapi.json generated from the route schemas, and the interactive docs page at /docs. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Switchyard gateway',
        version,
        description:
          'Inference gateway: chat, completions, embeddings, OCR, documents, images, transcription, batches, models, agents, account. ' +
          'Errors are {object:"error", message, type, param, code}. OCR boxes are [x1, y1, x2, y2] in pixels of the page image, top-left origin.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
      servers: [{ url: '/', description: 'This gateway (the address this document was read from)' }],
    },
    transform: describeOperation,
  });
  markPublic(app, '/docs');
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list' },
    uiHooks: {},
    // The plugin's policy (own scripts only), made stricter: no remote styles or fonts, no framing, no
    // upgrade to https (the gateway usually serves plain http on loopback). Swagger UI sets inline
    // styles as it renders, so styles (not scripts) may be inline on this page.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace(/ https:/g, '')
        .replace(' validator.swagger.io', '')
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/\s*upgrade-insecure-requests;?/, '')
        .replace(/style-src 'self'[^;]*;/, "style-src 'self' 'unsafe-inline';")
        .replace(/ +;/g, ';'),
    logo: { type: 'image/svg+xml', content: SWITCHYARD_LOGO, href: '/ui/' },
  });
  app.get('/openapi.json', { config: { auth: 'none', unlogged: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
