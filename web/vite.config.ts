import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { routePreload } from './config/route-preload-plugin';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Where `npm run dev` sends /api and /ws: the embedded app (`npm start`) by default. */
const apiTarget = process.env.API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  root: here,
  plugins: [
    react(),
    // Fetch the first route's chunk beside the entry chunk (see the plugin). Keep in step with
    // src/app/router.tsx; a stale entry costs a round trip, never correctness.
    routePreload({
      routes: {
        '/landing': ['src/app/routes/landing.tsx'],
        '/login': ['src/app/routes/login.tsx'],
        '/signup': ['src/app/routes/signup.tsx'],
        '/': ['src/app/shell/app-shell.tsx', 'src/app/routes/dashboard.tsx'],
        '/dashboard': ['src/app/shell/app-shell.tsx', 'src/app/routes/dashboard.tsx'],
        '*': ['src/app/shell/app-shell.tsx'],
      },
    }),
  ],
  resolve: {
    // web/ imports only the contracts of the domain (DESIGN.md section 3).
    alias: [{ find: /^@papertrade\/domain\/(.*)$/, replacement: `${path.resolve(here, '../domain/src')}/$1` }],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/ws': { target: apiTarget.replace(/^http/, 'ws'), ws: true },
    },
  },
});
