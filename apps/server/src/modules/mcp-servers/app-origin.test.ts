import { describe, expect, it } from 'vitest';
import { isAppOrigin } from './enabled-mcp-servers.service.ts';

const config = {
  appUrl: 'http://localhost:3000',
  publicApiUrl: 'http://localhost:3000',
  corsOrigins: ['https://studio.example.com'],
};
const accepts = (url: string, at = config) => isAppOrigin(at, new URL(url));

describe('pages a person may come back to after connecting an MCP server', () => {
  it('accepts APP_URL, the API origin and the allowed origins', () => {
    expect(accepts('http://localhost:3000/workspaces/1/connectors/mcp')).toBe(true);
    expect(accepts('https://studio.example.com/back')).toBe(true);
  });

  it('accepts another loopback name for a loopback APP_URL, on the same scheme and port', () => {
    expect(accepts('http://127.0.0.1:3000/workspaces/1')).toBe(true);
    expect(accepts('http://[::1]:3000/workspaces/1')).toBe(true);
    expect(accepts('http://127.0.0.1:3001/workspaces/1')).toBe(false);
    expect(accepts('https://127.0.0.1:3000/workspaces/1')).toBe(false);
  });

  it('refuses other hosts, and loopback names when APP_URL is a public address', () => {
    expect(accepts('https://evil.example/steal')).toBe(false);
    expect(accepts('http://localhost.evil.example:3000/')).toBe(false);
    expect(accepts('javascript:alert(1)')).toBe(false);
    const hosted = {
      appUrl: 'https://letterset.example.com',
      publicApiUrl: 'https://letterset.example.com',
      corsOrigins: [],
    };
    expect(accepts('https://letterset.example.com/workspaces/1', hosted)).toBe(true);
    expect(accepts('http://localhost/workspaces/1', hosted)).toBe(false);
  });
});
