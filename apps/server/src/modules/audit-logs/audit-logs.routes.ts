import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { AuditLogEntry, ListAuditLogsQuery } from './audit-logs.schemas.ts';
import { listAuditLogs, recordWrite } from './audit-logs.service.ts';

export const auditLogsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/audit_logs',
    {
      config: { permission: 'view_audit_logs' },
      schema: {
        operationId: 'listAuditLogs',
        tags: ['Audit log'],
        summary: 'List the writes made through the API, newest first',
        description:
          'Every successful create, update and delete, by a signed-in user or an API key; and every call of a ' +
          'tool of the MCP server, reads and refusals included (path `/mcp`, resource_type `mcp.<tool>`).',
        querystring: ListAuditLogsQuery,
        response: { 200: ListResponse(ref(AuditLogEntry)), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) =>
      listAuditLogs(app.services, principalOf(request), request.query, pageRequest(request.query)),
  );
};

/** Registered on the root instance so it sees every route's answers. */
export function registerAuditTrail(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    await recordWrite(app.services, request, reply.statusCode, payload);
    return payload;
  });
}
