import { startFakeIterable } from './fake-iterable.ts';
import { startFakeMcpServer } from './fake-mcp-server.ts';
import { startFakeOpenAi } from './fake-openai.ts';
import { startFakeSalesforce } from './fake-salesforce.ts';

/**
 * The fake Iterable (US and EU), fake Marketing Cloud, fake OpenAI and an outside MCP server as a
 * process of their own, for the e2e suite: `node serve-fakes.ts <first port> <app URL>` listens on
 * that port and the four after it, with the e2e accounts below (the web app integration may send
 * the browser back to the app), until it is stopped. The server under test is pointed at the
 * connector fakes through LETTERSET_TEST_CONNECTOR_ENDPOINTS (see e2e/playwright.config.ts). The
 * fake OpenAI (`<first port + 3>/v1`) takes any API key; tests script it through its /__fake
 * endpoints. The MCP server (`<first port + 4>/mcp`) offers a campaign brief tool, which people add
 * in MCP connectors like any other server.
 */
export const e2eAccounts = {
  iterableKey: 'e2e-iterable-server-key-0001',
  salesforceClientId: 'e2e-sfmc-client',
  salesforceClientSecret: 'e2e-sfmc-client-secret-0001',
  salesforceWebClientId: 'e2e-sfmc-web-client',
};

/** What the MCP server's `get_brief` tool answers, whatever campaign it is asked for. */
export const e2eCampaignBrief =
  'Autumn trail shoes launch. Headline: Trails are calling. Offer: 20% off with code TRAIL20 until Sunday.';

const firstPort = Number(process.argv[2]);
const appUrl = process.argv[3];
if (!Number.isInteger(firstPort) || firstPort < 1 || !appUrl) {
  console.error('usage: node serve-fakes.ts <first port> <app URL>');
  process.exit(2);
}
// Started first: Playwright's readiness check asks the fake Iterable, so every fake is up by then.
const openAi = await startFakeOpenAi({ port: firstPort + 3 });
const iterable = await startFakeIterable({ us: firstPort, eu: firstPort + 1 });
iterable.addKey(e2eAccounts.iterableKey, 'us');
const salesforce = await startFakeSalesforce(firstPort + 2);
const mcpServer = await startFakeMcpServer({
  port: firstPort + 4,
  tools: [
    {
      name: 'get_brief',
      description: 'Reads the brief of a campaign',
      arguments: ['campaign'],
      answer: () => e2eCampaignBrief,
    },
    { name: 'list_products', description: 'Lists the products of the shop' },
  ],
});
salesforce.addClient(e2eAccounts.salesforceClientId, { secret: e2eAccounts.salesforceClientSecret });
salesforce.addClient(e2eAccounts.salesforceWebClientId, {
  secret: e2eAccounts.salesforceClientSecret,
  redirectUris: [`${appUrl}/connectors/oauth-callback`],
});
console.log(
  `fake Iterable on ${iterable.urls.us} (US) and ${iterable.urls.eu} (EU); fake Marketing Cloud on ${salesforce.url}; fake OpenAI on ${openAi.baseUrl}; MCP server on ${mcpServer.url}`,
);

const stop = async () => {
  await Promise.all([iterable.close(), salesforce.close(), openAi.close(), mcpServer.close()]);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
