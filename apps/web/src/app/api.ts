import { createApiClient } from '@letterset/api-client';

/** Fired when the API answers 401 to a signed-in request: the session has expired or was revoked. */
export const SESSION_EXPIRED_EVENT = 'letterset:session-expired';

/** The one API client of the web app: same origin as the server, session cookie included. */
export const api = createApiClient({ baseUrl: window.location.origin });

api.use({
  onResponse({ request, response }) {
    // Signing in answers 401 for a wrong password; that is not an expired session.
    const isSignIn = new URL(request.url).pathname === '/api/v1/session' && request.method === 'POST';
    if (response.status === 401 && !isSignIn) window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT));
    return response;
  },
});
