import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

// Built into dist/renderer and served by the gateway at /ui/; the console calls the API on the
// same origin. In `vite dev`, SWITCHYARD_GATEWAY points the proxy at a running gateway.
const gateway = process.env.SWITCHYARD_GATEWAY ?? 'http://127.0.0.1:8080';
const apiPaths = ['/v1', '/status', '/models', '/account', '/console', '/transcript', '/chat'];

/**
 * index.html carries the console's Content-Security-Policy for the built console; `vite dev` needs
 * what it forbids (React Refresh's inline preamble, the HMR WebSocket), so the dev server drops it.
 */
const devWithoutCsp: Plugin = {
  name: 'switchyard-dev-without-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, ''),
};

export default defineConfig({
  root: 'renderer',
  base: '/ui/',
  plugins: [react(), devWithoutCsp],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: Object.fromEntries(apiPaths.map((p) => [p, { target: gateway, changeOrigin: true }])),
  },
});
