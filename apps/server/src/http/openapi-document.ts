import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** The committed snapshot of the generated document; the api-client and docs are built from it. */
export const committedOpenApiPath = path.resolve(import.meta.dirname, '../../openapi.yml');

export function generateOpenApiYaml(app: Pick<FastifyInstance, 'swagger'>): string {
  return app.swagger({ yaml: true });
}
