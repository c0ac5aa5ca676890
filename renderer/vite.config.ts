import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Built into dist/renderer and served by the gateway at /ui/; the console calls the API on the
// same origin. In `vite dev`, SWITCHYARD_GATEWAY points the proxy at a running gateway.
const gateway = process.env.SWITCHYARD_GATEWAY ?? 'http://127.0.0.1:8080';
const apiPaths = ['/v1', '/status', '/models', '/account', '/console', '/transcript', '/chat'];

export default defineConfig({
  root: 'renderer',
  base: '/ui/',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: Object.fromEntries(apiPaths.map((p) => [p, { target: gateway, changeOrigin: true }])),
  },
});
