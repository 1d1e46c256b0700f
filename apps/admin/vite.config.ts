import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API serves the built console at /admin/; in `npm run dev -w apps/admin` the dev server
// forwards /v1 to the API (API_URL, default http://localhost:3000), so both run same-origin.
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2500 },
  server: {
    port: 5173,
    proxy: { '/v1': process.env.API_URL ?? 'http://localhost:3000', '/widget': process.env.API_URL ?? 'http://localhost:3000' },
  },
});
