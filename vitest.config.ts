import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for every suite: gateway HTTP and unit tests, Electron logic, renderer components,
// and the browser end-to-end specs (Playwright driving Debian's Chromium).
export default defineConfig({
  test: {
    // Vitest's default (one worker less than the cores) is a single worker on a 2-core machine, and most
    // of this suite waits on sockets, timers, child processes and the browser rather than computing:
    // two workers there took the whole run from 477 to 384 s, with every test passing (2026-11-25).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'gateway',
          environment: 'node',
          include: ['gateway/test/**/*.test.ts', 'electron/test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['renderer/src/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.spec.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
