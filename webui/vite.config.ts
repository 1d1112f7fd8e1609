import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const backend = process.env.KARDAN_API || 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    assetsInlineLimit: 2048,
  },
  server: {
    proxy: {
      '/v1': backend,
      '/uploads': backend,
      '/healthz': backend,
    },
  },
  preview: {
    proxy: {
      '/v1': backend,
      '/uploads': backend,
      '/healthz': backend,
    },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
