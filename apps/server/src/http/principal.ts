import type { PermissionKey } from '@letterset/core';

/** Who is calling: the user (and how they proved it), their organization, role and keys. */
export interface Principal {
  userId: number;
  organizationId: number;
  roleId: number;
  permissions: ReadonlySet<PermissionKey>;
  /** `mcp_oauth`: an MCP app's access token, which acts as the user who consented (on `/mcp` only). */
  via: 'session' | 'api_key' | 'mcp_oauth';
  sessionTokenHash: string | null;
  apiKeyId: number | null;
}
