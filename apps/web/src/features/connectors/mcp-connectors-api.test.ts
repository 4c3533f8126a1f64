import { beforeEach, describe, expect, it, vi } from 'vitest';
import { connectMcpServer } from './mcp-connectors-api.ts';

const apiCalls = vi.hoisted(() => ({ POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));

const connected = {
  id: 5,
  mcp_server_id: 2,
  enabled: true,
  start_oauth_flow_url: 'https://auth.example.com/start',
};
const ok = (data: unknown) => ({ data, error: undefined, response: { ok: true, status: 201 } });
const refused = (errors: Record<string, string[]>) => ({
  data: undefined,
  error: { message: 'Validation failed', errors },
  response: { ok: false, status: 422 },
});
const path = '/api/v1/workspaces/{workspace_id}/enabled_mcp_servers';
const returnUrl = 'http://localhost:5173/workspaces/3/connectors/mcp';

describe('connecting to an MCP server', () => {
  beforeEach(() => apiCalls.POST.mockReset());

  it('asks to come back to the page after signing in', async () => {
    apiCalls.POST.mockResolvedValue(ok(connected));
    await expect(connectMcpServer(3, 2, returnUrl)).resolves.toEqual(connected);
    expect(apiCalls.POST).toHaveBeenCalledOnce();
    expect(apiCalls.POST).toHaveBeenCalledWith(path, {
      params: { path: { workspace_id: 3 } },
      body: { mcp_server_id: 2, after_oauth_redirect_url: returnUrl },
    });
  });

  it('asks again for the server’s default page when the return address is refused', async () => {
    apiCalls.POST.mockResolvedValueOnce(refused({ after_oauth_redirect_url: ['is not on APP_URL'] }));
    apiCalls.POST.mockResolvedValueOnce(ok(connected));
    await expect(connectMcpServer(3, 2, returnUrl)).resolves.toEqual(connected);
    expect(apiCalls.POST).toHaveBeenLastCalledWith(path, {
      params: { path: { workspace_id: 3 } },
      body: { mcp_server_id: 2 },
    });
  });

  it('gives up on any other refusal', async () => {
    apiCalls.POST.mockResolvedValue(refused({ mcp_server_id: ['is not healthy'] }));
    await expect(connectMcpServer(3, 2, returnUrl)).rejects.toMatchObject({ status: 422 });
    expect(apiCalls.POST).toHaveBeenCalledOnce();
  });
});
