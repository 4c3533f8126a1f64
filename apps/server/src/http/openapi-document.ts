import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { stringify } from 'yaml';

/** The committed snapshot of the generated document; the api-client and docs are built from it. */
export const committedOpenApiPath = path.resolve(import.meta.dirname, '../../openapi.yml');

/**
 * The document as YAML, every object written out where it is used: no anchors and aliases, which
 * would otherwise appear wherever two routes happen to share one object (a tags array, say) and
 * which some OpenAPI tools do not follow.
 */
export function generateOpenApiYaml(app: Pick<FastifyInstance, 'swagger'>): string {
  return stringify(app.swagger(), { aliasDuplicateObjects: false });
}
