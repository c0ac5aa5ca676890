import { defineConfig } from 'vitest/config';

// One runner for every suite: gateway HTTP and unit tests, Electron logic, renderer components,
// and the browser end-to-end specs (Playwright driving Debian's Chromium).
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on CI's 2-core machine, where most test
    // files wait on sockets, child processes and timers rather than compute.
    maxWorkers: 2,
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
          include: ['renderer/test/**/*.test.{ts,tsx}'],
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
          // A browser spec that fails is run once more before it counts: in five full runs on this
          // 2-core machine three different specs each timed out once on a 30 s wait and passed when
          // run again; their causes are still to be found.
          retry: 1,
        },
      },
    ],
  },
});
