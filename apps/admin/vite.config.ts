import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress';

// The API serves the built console at /admin/; in `npm run dev -w apps/admin` the dev server
// forwards /v1 to the API (API_URL, default http://localhost:3000), so both run same-origin.
// Every page is its own chunk (src/views.ts) and the build writes .br/.gz beside each asset.
export default defineConfig({
  base: '/admin/',
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2500 },
  server: {
    port: 5173,
    proxy: { '/v1': process.env.API_URL ?? 'http://localhost:3000', '/widget': process.env.API_URL ?? 'http://localhost:3000' },
  },
});
