import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiOrigin = process.env.LETTERSET_API_ORIGIN ?? 'http://localhost:3000';
const proxiedToApi = [
  '/api',
  '/openapi.yml',
  '/openapi.json',
  '/healthz',
  '/readyz',
  // Letterset's MCP server and its OAuth endpoints (the consent screen, /oauth/consent, is the app's).
  '/mcp',
  '/.well-known/oauth-',
  '/oauth/authorize',
  '/oauth/token',
];

export default defineConfig({
  // The router plugin turns src/routes/ into src/routeTree.gen.ts and splits every route into its
  // own chunk, so the builder and the editor load only when opened.
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true }), react()],
  server: {
    port: 5173,
    // `npm run dev` serves the app here and sends API calls to the server, one origin for the cookie.
    proxy: Object.fromEntries(
      proxiedToApi.map((prefix) => [prefix, { target: apiOrigin, changeOrigin: false }]),
    ),
  },
  // The manifest is what check-bundle-budget.ts (run after every build) measures routes by.
  build: { sourcemap: true, manifest: true },
});
