import { Type } from 'typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import { DateTimeText, Id, Identifier, ref, Timestamp } from '../../http/schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

export const AuditLogEntry = Type.Object(
  {
    id: Type.Integer(),
    action: Type.Enum(['create', 'update', 'delete', 'read'], {
      description: '`read` appears only for calls of MCP tools that read (resource_type `mcp.<tool>`)',
    }),
    resource_type: Type.String({
      description: 'What was written, from the route: e.g. teams, teams.users, workspaces.projects',
      examples: ['teams'],
    }),
    resource_id: Type.Union([Type.String(), Type.Null()]),
    method: Type.String({ examples: ['PATCH'] }),
    path: Type.String({ examples: ['/api/v1/teams/4'], description: '`/mcp` for calls of MCP tools' }),
    status_code: Type.Integer(),
    auth_method: Type.Enum(['session', 'api_key', 'mcp_oauth'], {
      description:
        'session: the web app; api_key: an API key (api_key_id), on the API or the MCP server; mcp_oauth: an MCP app’s access token, on the MCP server',
    }),
    api_key_id: Type.Union([Type.Integer(), Type.Null()]),
    user: Type.Union([ref(UserReference), Type.Null()]),
    request_id: Type.String({
      description: 'The x-request-id of the request, to find it in the server logs',
    }),
    details: Type.Union(
      [
        Type.Object(
          {
            overridden_problems: Type.Optional(
              Type.Array(
                Type.Object(
                  {
                    code: Type.String(),
                    locale: Type.Union([Type.String(), Type.Null()]),
                    branch: Type.Union([Type.String(), Type.Null()]),
                    component_instance_id: Type.Union([Type.String(), Type.Null()]),
                    message: Type.String(),
                  },
                  { additionalProperties: true },
                ),
                {
                  description:
                    'On an emails.force_published entry: the blocking pre-send problems the force publish overrode',
                },
              ),
            ),
          },
          { additionalProperties: true },
        ),
        Type.Null(),
      ],
      { description: 'What the entry adds beyond the request; null for most entries' },
    ),
    created_at: Timestamp,
  },
  { $id: 'AuditLogEntry' },
);

export const ListAuditLogsQuery = Type.Object({
  ...PaginationQuery.properties,
  user_id: Type.Optional(Id()),
  resource_type: Type.Optional(Identifier({ minLength: 0 })),
  from: Type.Optional(DateTimeText({ description: 'Entries at or after this time' })),
  to: Type.Optional(DateTimeText({ description: 'Entries before this time' })),
});
