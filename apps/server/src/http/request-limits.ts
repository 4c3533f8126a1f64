import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors.ts';
import { errorResponses } from './schemas.ts';

const json = 'application/json';
const multipart = 'multipart/form-data';
/** Methods whose bodies Fastify reads (it ignores the body of a GET or HEAD). */
const methodsWithBodies = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Room for an upload's text fields and part headers beside its file. */
export const uploadFieldsAllowance = 1024 * 1024;

/**
 * What a route takes is settled from the headers alone, once the caller is known and before the
 * body is read: a content type the route does not declare is a 415, and a Content-Length over its
 * limit a 413 (JSON: the route's `bodyLimit`; uploads: the largest file plus their fields). Bodies
 * streamed without a Content-Length meet the same limits while they are read (Fastify's
 * `bodyLimit`; the upload parser's file size limit). Routes that take a body document both answers.
 */
export function registerRequestLimits(app: FastifyInstance, options: { maxUploadFileBytes: number }): void {
  const uploadBodyLimit = options.maxUploadFileBytes + uploadFieldsAllowance;

  app.addHook('onRoute', (route) => {
    if (route.schema?.body && route.schema.response) {
      route.schema.response = { ...(route.schema.response as object), ...errorResponses(413, 415) };
    }
  });

  app.addHook('onRequest', async (request) => {
    if (request.is404 || !methodsWithBodies.has(request.method) || !hasBody(request)) return;
    const accepted = request.routeOptions.schema?.consumes ?? [json];
    const contentType = request.headers['content-type'] ?? '';
    const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (!accepted.includes(mediaType)) throw new UnsupportedMediaTypeError(accepted);
    if (mediaType === multipart && !/;\s*boundary=/i.test(contentType)) {
      throw new BadRequestError('A multipart/form-data body needs a boundary parameter in its content type');
    }
    // An upload route may set its own file limit (`config.multipartOptions.limits.fileSize`).
    const routeFileLimit = request.routeOptions.config.multipartOptions?.limits?.fileSize;
    const limit =
      mediaType === multipart
        ? routeFileLimit === undefined
          ? uploadBodyLimit
          : routeFileLimit + uploadFieldsAllowance
        : request.routeOptions.bodyLimit;
    const declaredLength = Number(request.headers['content-length']);
    if (declaredLength > limit) throw new PayloadTooLargeError(limit);
  });
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}
