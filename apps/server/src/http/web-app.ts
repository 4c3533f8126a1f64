import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routeNotFound } from './errors.ts';

/** Paths that belong to the API and never fall back to the web app's index.html. */
const apiPrefixes = ['/api/', '/openapi.', '/healthz', '/readyz'];

/**
 * Serves the built web app (one origin with the API, so the session cookie just works).
 * Answers whether there was a build to serve.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<boolean> {
  if (!existsSync(path.join(webDistDir, 'index.html'))) {
    app.log.debug({ webDistDir }, 'no built web app; serving the API only');
    return false;
  }
  await app.register(fastifyStatic, {
    root: webDistDir,
    wildcard: false,
    // Vite fingerprints everything under assets/: those files never change.
    setHeaders: (response, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      response.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return true;
}

/** Unknown paths a browser navigates to get index.html: the app's router owns them. */
export function webAppFallback(request: FastifyRequest, reply: FastifyReply) {
  const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
  if (wantsPage && !apiPrefixes.some((prefix) => request.url.startsWith(prefix))) {
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  }
  return routeNotFound(request, reply);
}
