import { startFakeIterable } from './fake-iterable.ts';
import { startFakeOpenAi } from './fake-openai.ts';
import { startFakeSalesforce } from './fake-salesforce.ts';

/**
 * The fake Iterable (US and EU), fake Marketing Cloud and fake OpenAI as a process of their own,
 * for the e2e suite: `node serve-fakes.ts <first port> <app URL>` listens on that port and the three
 * after it, with the e2e accounts below (the web app integration may send the browser back to the
 * app), until it is stopped. The server under test is pointed at the connector fakes through
 * LETTERSET_TEST_CONNECTOR_ENDPOINTS (see e2e/playwright.config.ts). The fake OpenAI (`<first
 * port + 3>/v1`) takes any API key; tests script it through its /__fake endpoints.
 */
export const e2eAccounts = {
  iterableKey: 'e2e-iterable-server-key-0001',
  salesforceClientId: 'e2e-sfmc-client',
  salesforceClientSecret: 'e2e-sfmc-client-secret-0001',
  salesforceWebClientId: 'e2e-sfmc-web-client',
};

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
salesforce.addClient(e2eAccounts.salesforceClientId, { secret: e2eAccounts.salesforceClientSecret });
salesforce.addClient(e2eAccounts.salesforceWebClientId, {
  secret: e2eAccounts.salesforceClientSecret,
  redirectUris: [`${appUrl}/connectors/oauth-callback`],
});
console.log(
  `fake Iterable on ${iterable.urls.us} (US) and ${iterable.urls.eu} (EU); fake Marketing Cloud on ${salesforce.url}; fake OpenAI on ${openAi.baseUrl}`,
);

const stop = async () => {
  await Promise.all([iterable.close(), salesforce.close(), openAi.close()]);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
