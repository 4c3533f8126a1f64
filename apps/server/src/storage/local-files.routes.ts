import type { FastifyPluginAsync } from 'fastify';
import { routeNotFound } from '../http/errors.ts';
import { InvalidStorageKeyError } from './file-storage.ts';

/** Files only their owners may read, through the API (exports, brand guidelines documents): never served here. */
const privatePrefixes = ['exports/', 'ai-agents/'];

/**
 * Serves local storage at /files/<key> (S3 storage is served by the bucket or its CDN). Keys
 * never change, so answers may be cached for a year; nosniff keeps browsers to the stated type.
 */
export const localFilesRoutes: FastifyPluginAsync = async (app) => {
  app.get('/files/*', { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    if (privatePrefixes.some((prefix) => key.startsWith(prefix))) return routeNotFound(request, reply);
    const file = await app.services.storage.get(key).catch((error: unknown) => {
      if (error instanceof InvalidStorageKeyError) return null;
      throw error;
    });
    if (!file) return routeNotFound(request, reply);
    return reply
      .header('content-type', file.contentType)
      .header('content-length', file.size)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('access-control-allow-origin', '*')
      .send(file.body);
  });
};
