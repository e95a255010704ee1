/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleReport } from './build/bundle-report.ts';

const apiTarget = `http://localhost:${process.env.API_PORT ?? 8080}`;

// Only modules reachable from the entry through static imports ('$initial') are grouped into
// vendor chunks. Libraries that are imported lazily (charts, luxon, bignumber.js, qrcode.react)
// stay in the chunks of the code that imports them, so the sign-in bundle does not carry them.
const reactPackages = /[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/;
const anyPackage = /[\\/]node_modules[\\/]/;

export default defineConfig({
  plugins: [react(), bundleReport()],
  server: {
    proxy: {
      '/api': apiTarget,
      '/__dev': apiTarget,
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: reactPackages,
              tags: ['$initial'],
              priority: 20,
            },
            {
              name: 'vendor',
              test: anyPackage,
              tags: ['$initial'],
              priority: 10,
            },
          ],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: [
            'src/**/*.test.{ts,tsx}',
            'machines/**/*.test.ts',
            'tests/**/*.test.{ts,tsx}',
          ],
          exclude: ['**/node_modules/**', '**/.git/**', 'tests/e2e/**'],
          setupFiles: ['tests/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
    ],
  },
});
