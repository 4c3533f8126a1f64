import { createApiClient } from '@letterset/api-client';

/** The one API client of the web app: same origin as the server, session cookie included. */
export const api = createApiClient({ baseUrl: window.location.origin });
